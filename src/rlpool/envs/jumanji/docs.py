"""The hand-written reference text of the Jumanji family (``docs/envs/jumanji.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc

_START = "jumanji's default generator's instance, drawn from the episode's key (see the family's notes)."

ENVS: list[EnvDoc] = []
"""One entry per env type, in the order of jumanji's own list (logic, packing, routing, swarms)."""

# -- logic: Game2048, SlidingTilePuzzle, RubiksCube

ENVS.append(EnvDoc(
    title="SlidingTilePuzzle",
    env_types=("JumanjiSlidingTilePuzzle",),
    summary="""jumanji's SlidingTilePuzzle: a 5 x 5 board of tiles 1..24 and an empty square, shuffled by 200
random moves from the solved order; each step moves the empty square.""",
    observation_text="""`puzzle` (int32, n x n): the tiles, 0 the empty square; `empty_tile_position` (int32, 2):
its row and column; `action_mask` (bool, 4): the moves that stay on the board; `step_count` (int32). Info:
`prop_correctly_placed` (float32), the share of squares holding their solved tile (jumanji's extras).""",
    action_text="The empty square's move: 0 up, 1 right, 2 down, 3 left; a move off the board changes nothing.",
    reward="The tiles newly in their solved place less the tiles newly out of it.",
    starting_state=_START + " The empty square starts bottom right and takes `num_random_moves` random legal moves.",
    termination="""The board solved, or `step_count` reaching `time_limit` (500: jumanji's own limit is a
termination; the registered time limit is the same step, so both flags are set there).""",
))

ENVS.append(EnvDoc(
    title="Game2048",
    env_types=("JumanjiGame2048",),
    summary="jumanji's Game2048: 2048 on a 4 x 4 board; tiles slide and equal tiles merge into their double.",
    observation_text="""`board` (int32, n x n): each tile's exponent (1 for a 2, 2 for a 4, ...), 0 for an empty
square; `action_mask` (bool, 4): the moves that change the board. The info entry `highest_tile` (int32) is
jumanji's extra, 2 ** the largest exponent.""",
    action_text="0 up, 1 right, 2 down, 3 left. An illegal move leaves the board as it is and adds no tile.",
    reward="The sum of the values of the tiles the move made by merging (float32), else 0.",
    starting_state=_START + """ One tile on an empty board, at a uniform square: 2 with probability 0.9, else 4. A
legal move adds one such tile on a uniform empty square.""",
    termination="No legal move left (the game has no time limit of its own; the registry's truncates).",
))

ENVS.append(EnvDoc(
    title="RubiksCube",
    env_types=("JumanjiRubiksCube",),
    summary="""jumanji's RubiksCube: a 3 x 3 x 3 Rubik's Cube scrambled by 100 random moves (7 in
RubiksCube-partly-scrambled-v0); each step turns one layer.""",
    observation_text="""`cube` (int8, 6 x n x n): each sticker's colour 0..5, faces in the order up, front,
right, back, left, down, each read row by row looking straight at it; `step_count` (int32).""",
    action_text="""`[face, depth, amount]` (a `MultiDiscrete([6, cube_size // 2, 3])`): the face whose layer
turns, how many layers in from it, and 0 a clockwise quarter turn, 1 an anticlockwise one, 2 a half turn.""",
    reward="1 on the step that solves the cube (every face one colour), else 0.",
    starting_state=_START + """ A solved cube turned by `num_scrambles_on_reset` uniform random moves (jumanji's
ScramblingGenerator).""",
    termination="""The cube solved, or `time_limit` steps (200; 20 for the partly scrambled cube), which jumanji
counts a termination. The engine's time limit (the same number of steps) marks that step truncated as
well.""",
))

# -- logic: Minesweeper, Sudoku, GraphColoring

ENVS.append(EnvDoc(
    title="Minesweeper",
    env_types=("JumanjiMinesweeper",),
    summary="jumanji's Minesweeper: a 10 x 10 board hiding 10 mines; each step explores one square.",
    observation_text="""`board` (int32, rows x cols): -1 for an unexplored square, else the number of mines among its
8 neighbours; `action_mask` (bool): the unexplored squares; `num_mines` (int32); `step_count` (int32).""",
    action_text="`[row, col]` of the square to explore (a `MultiDiscrete([num_rows, num_cols])`).",
    reward="1 for exploring a square without a mine, 0 for a mine or a square already explored.",
    starting_state=_START + " The mines are `num_mines` distinct squares drawn uniformly; every square is hidden.",
    termination="""Exploring a mine, exploring a square already explored, or exploring every square without a
mine (on the default board at step 90 at the latest, the time limit's step: both flags are set then).""",
))

ENVS.append(EnvDoc(
    title="Sudoku",
    env_types=("JumanjiSudoku",),
    summary="""jumanji's Sudoku: a 9 x 9 puzzle from jumanji's database; each step writes one digit. `Sudoku-v0`
draws from 10,000 puzzles of mixed difficulty, `Sudoku-very-easy-v0` from 1,000 with 46 clues or more (the option
`sudoku_database`: `"mixed"` or `"very-easy"`). The databases are jumanji 1.1.2's data files, not shipped with
rlpool: an installed jumanji's are used, else its pinned wheel is fetched with pip once into rlpool's cache.""",
    observation_text="""`board` (int32, 9 x 9): -1 for an empty square, else its digit less one (0..8);
`action_mask` (bool, 9 x 9 x 9): digit `d` may go on square `(r, c)` (it is empty and no square of its row,
column or box holds `d`).""",
    action_text="`[row, col, digit]`, the digit less one (a `MultiDiscrete([9, 9, 9])`).",
    reward="1 on the step whose board is solved (every row, column and box holds every digit), else 0.",
    starting_state=_START + " The puzzle is drawn uniformly from the database.",
    termination="An action the mask forbids (its digit is written all the same), or no legal action left.",
))

ENVS.append(EnvDoc(
    title="GraphColoring",
    env_types=("JumanjiGraphColoring",),
    summary="""jumanji's GraphColoring: a random graph of 20 nodes (each edge with probability 0.8) whose nodes
take a color each, in order, from 20 colors; the fewer colors used, the better.""",
    observation_text="""`adj_matrix` (bool, n x n, symmetric, no loops); `colors` (int32, n): each node's color, -1
before it has one; `current_node_index` (int32): the node to color; `action_mask` (bool, n): the colors none of
that node's neighbours has.""",
    action_text="The color of the current node, `0..num_nodes - 1`.",
    reward="""Minus the number of colors used, on the step that colors the last node; -num_nodes for a color the
mask forbids (the node takes it all the same); else 0.""",
    starting_state=_START + " No node has a color; node 0 is the first to color.",
    termination="""Every node colored (step num_nodes: with the default 20 nodes that step is also the time limit's,
so both flags are set), or a color the mask forbids.""",
))

# -- packing: Knapsack, BinPack, JobShop

ENVS.append(EnvDoc(
    title="FlatPack",
    env_types=("JumanjiFlatPack",),
    summary="jumanji's FlatPack: an 11 x 11 grid cut into 5 x 5 interlocking pieces of up to 3 x 3 squares, "
    "shuffled and turned, to be put back one per step.",
    observation_text="""`grid` (int32, rows x cols): 0 where empty, else the number of the piece placed there;
`blocks` (int32, num_blocks x 3 x 3): the pieces, each square 0 or the piece's number; `action_mask` (bool,
num_blocks x 4 x (rows - 2) x (cols - 2)): the pieces not placed yet, by rotation and top-left square, that
meet no filled square.""",
    action_text="`[piece, rotation, row, col]`: the piece, 0..3 quarter turns, and where its 3 x 3 box's top-left "
    "square goes.",
    reward="""The placed piece's squares over rows * cols (float32) for a legal action; 0 for an illegal one,
which changes nothing.""",
    starting_state=_START + """ The pieces cut from a grid with random interlocks, each turned a uniform 0..3
quarter turns, in a uniform order; the grid empty, every action legal.""",
    termination="""After num_blocks steps (25), legal or not, which jumanji counts a termination. The engine's
time limit (the same number of steps) marks that step truncated as well.""",
))

ENVS.append(EnvDoc(
    title="Tetris",
    env_types=("JumanjiTetris",),
    summary="jumanji's Tetris: one of the 7 tetrominoes at a time is dropped into a 10 x 10 grid at a chosen "
    "rotation and column; full lines are cleared.",
    observation_text="""`grid` (int32, rows x cols, 0/1): the filled squares; `tetromino` (int32, 4 x 4, 0/1):
the piece to place, unrotated; `action_mask` (bool, 4 x cols): the rotations and columns where the piece
fits from the top (and does not stick out to the right); `step_count` (int32): always 0, as jumanji's
observations have it.""",
    action_text="`[rotation, column]`: 0..3 quarter turns, and the column of the piece's 4 x 4 box's left edge.",
    reward="""40, 100, 300 or 1200 for clearing 1, 2, 3 or 4 lines with a legal action, else 0. An illegal
action is still played (the piece lands where jumanji's drop puts it) and ends the episode.""",
    starting_state=_START + " An empty grid; the piece uniform over the 7 tetrominoes, as is each next one.",
    termination="""An illegal action, no legal action for the next piece, or `time_limit` steps (400), which
jumanji counts a termination. The engine's time limit (the same number of steps) marks that step truncated
as well.""",
))

ENVS.append(EnvDoc(
    title="Knapsack",
    env_types=("JumanjiKnapsack",),
    summary="jumanji's Knapsack: 50 items with weights and values; each step packs one into a bag of capacity "
    "12.5.",
    observation_text="""`weights`, `values` (float32, num_items); `packed_items` (bool); `action_mask` (bool):
the items not packed whose weight fits the budget left. Info: `remaining_budget` (float32), the State's, as
EnvPool's info has it.""",
    action_text="The item to pack, 0..num_items - 1.",
    reward="The packed item's value; 0 for an invalid item (packed already, or heavier than the budget left).",
    starting_state=_START + """ Weights and values uniform on [0, 1) (one draw of 2 x num_items); nothing packed,
the budget `total_budget` (float32).""",
    termination="No item left that fits, or an invalid item chosen (the state is left as it was).",
))

ENVS.append(EnvDoc(
    title="BinPack",
    env_types=("JumanjiBinPack",),
    summary="""jumanji's BinPack: 3-D packing of up to 20 boxes into one 20-foot container (5870 x 2330 x 2200
mm), tracked as Empty Maximal Spaces (EMSs, at most 40); each step places one box.""",
    observation_text="""`ems.x1` ... `ems.z2` (float32, 40): the corners of the EMSs, largest volume first, as
fractions of the container (int32 mm with `normalize_dimensions=False`); `ems_mask` (bool): the EMSs that
exist; `items.x_len`, `items.y_len`, `items.z_len` (float32, 20): the boxes' sizes, likewise; `items_mask`
(bool): the boxes of this instance; `items_placed` (bool); `action_mask` (bool, 40 x 20): the (EMS, box) pairs
where the box fits. Info: jumanji's extras `volume_utilization`, `packed_items`, `ratio_packed_items`,
`active_ems`, `invalid_action`.""",
    action_text="""`[ems, item]` (a `MultiDiscrete([obs_num_ems, max_num_items])`): put box `item` at the
bottom-left-back corner of the `ems`-th EMS of the observation.""",
    reward="""The placed box's volume over the container's (jumanji's DenseReward); 0 for an invalid action.
An episode's return is the container's volume utilization.""",
    starting_state=_START + """ The container cut into 19 boxes by random splits (jumanji's RandomGenerator:
the boxes of one exact packing, unpacked); one EMS, the whole container.""",
    termination="""No box fits in any observed EMS (every box placed, or none left that fits), or an invalid
action (a pair the mask refuses), which changes nothing.""",
))

ENVS.append(EnvDoc(
    title="JobShop",
    env_types=("JumanjiJobShop",),
    summary="""jumanji's JobShop: job shop scheduling of 20 jobs of up to 8 operations each on 10 machines;
each step, every machine starts a job's next operation or does nothing, and time moves on by one.""",
    observation_text="""`ops_machine_ids`, `ops_durations` (int32, jobs x max_num_ops): each operation's machine
and duration (1..6), -1 for padding; `ops_mask` (bool): the operations not yet scheduled;
`machines_job_ids` (int32, machines): each machine's job (`num_jobs` for none); `machines_remaining_times`
(int32): the steps until each machine is free; `action_mask` (bool, machines x (jobs + 1)): the jobs each
machine may start now, the last column the no-op (always legal).""",
    action_text="""One job per machine (a `MultiDiscrete([num_jobs + 1] * num_machines)`): the job whose next
operation the machine starts, or `num_jobs` for a no-op.""",
    reward="""-1 per step; -num_jobs x max_num_ops x max_op_duration (-960) when the action is illegal or every
machine ends the step idle.""",
    starting_state=_START + """ Each job has 1..max_num_ops operations, each on a uniform machine with a
uniform duration 1..max_op_duration (jumanji's RandomGenerator); every machine is free.""",
    termination="""Every operation scheduled and finished, every machine idle at once, or an illegal action
(after which jumanji's state is updated as for any action).""",
))

# -- routing: TSP, CVRP, Maze, Snake

ENVS.append(EnvDoc(
    title="PacMan",
    env_types=("JumanjiPacMan",),
    summary="""jumanji's PacMan: the player walks jumanji's 31 x 28 maze eating pellets and power-ups while four
ghosts chase it, each with its own target (jumanji's versions of Blinky, Pinky, Inky and Clyde). The maze is
jumanji's `DEFAULT_MAZE`, read (parsed, never run) from jumanji 1.1.2's `constants.py`: an installed jumanji's
where its sha256 matches, else from the pinned wheel, fetched with pip once into rlpool's cache.""",
    observation_text="""`grid` (int32, 31 x 28): 1 open, 0 wall; `player_locations.y` and `player_locations.x`
(int32): the player's column and row; `ghost_locations`, `power_up_locations` (int32, 4 x 2) and
`pellet_locations` (int32, 318 x 2): (column, row) pairs, (0, 0) for an eaten power-up or pellet;
`frightened_state_time` (int32): steps left in which ghosts can be eaten (counting on below 0);
`action_mask` (bool, 5): the moves onto an open square (the no-op always false); `score` (int32). The
`player_locations` keys come y first, as EnvPool 1.2.7 orders them.""",
    action_text="""0 up, 1 left, 2 down, 3 right, 4 no-op (jumanji's player_step); a move into a wall leaves the
player where it is. The tunnel row wraps around.""",
    reward="""10 for a pellet, 50 more for a power-up (its square holds a pellet too), 200 for a frightened ghost
not eaten before (0 after), summed per step.""",
    starting_state="""jumanji's default AsciiGenerator: always the same maze, pellets on every open square, the
player and the ghosts at their marked squares, the ghosts leaving one by one (after 1, 5, 10 and 15 steps).
The episode's key drives the ghosts' random choices at crossings.""",
    termination="""A ghost catching the player while not frightened, the last pellet eaten, or `time_limit` steps
(1000), which jumanji counts a termination. The engine's time limit (the same number of steps) marks that step
truncated as well.""",
))

ENVS.append(EnvDoc(
    title="Maze",
    env_types=("JumanjiMaze",),
    summary="jumanji's Maze: an agent walks a 10 x 10 maze of walls (recursive division) to a target square.",
    observation_text="""`agent_position.row`, `agent_position.col`, `target_position.row`, `target_position.col`
(int32); `walls` (bool, rows x cols); `action_mask` (bool, 4): the moves that stay in the maze and off the
walls; `step_count` (int32).""",
    action_text="0 up, 1 right, 2 down, 3 left; a move the mask refuses leaves the agent where it is.",
    reward="1 on reaching the target, else 0.",
    starting_state=_START + """ Walls by recursive division (jumanji's maze_generation); the agent's and the
target's squares two different wall-free squares, uniform.""",
    termination="""The target reached, no legal move left, or `time_limit` steps (num_rows * num_cols = 100 by
default), which jumanji counts a termination. The engine's time limit (the same number of steps) marks that
step truncated as well.""",
))

ENVS.append(EnvDoc(
    title="TSP",
    env_types=("JumanjiTSP",),
    summary="jumanji's Travelling Salesman Problem: visit each of 20 cities in the unit square once; the tour "
    "closes by itself after the last city.",
    observation_text="""`coordinates` (float32, num_cities x 2); `position` (int32): the last city visited, -1
before the first; `trajectory` (int32, num_cities): the cities in the order visited, -1 where none yet;
`action_mask` (bool, num_cities): the cities not visited yet.""",
    action_text="The city to visit next, 0..num_cities - 1.",
    reward="""Minus the distance from the last city to the new one (0 for the first city); the last city's also
subtracts the distance back to the first. Choosing a visited city gives `-num_cities * sqrt(2)` (float32).""",
    starting_state=_START + " The cities' coordinates are uniform on [0, 1); no city is visited.",
    termination="Every city visited, or a visited city chosen again (the state is left as it was).",
))

ENVS.append(EnvDoc(
    title="CVRP",
    env_types=("JumanjiCVRP",),
    summary="jumanji's Capacitated Vehicle Routing Problem: a vehicle of capacity 30 leaves a depot (node 0) "
    "to serve 20 customers with demands 1..9, going back to the depot to refill.",
    observation_text="""`coordinates` (float32, (num_nodes + 1) x 2, the depot first); `demands` (float32): each
node's demand over `max_capacity` (0 for the depot); `unvisited_nodes` (bool); `position` (int32): the node
the vehicle is at; `trajectory` (int32, 2 * num_nodes): the nodes in the order visited, 0 (the depot) where
none yet; `capacity` (float32): what is left over `max_capacity`; `action_mask` (bool): the unvisited nodes
whose demand fits, and the depot unless the vehicle is at it.""",
    action_text="The node to go to, 0 (the depot, which refills the vehicle) .. num_nodes.",
    reward="""Minus the distance moved; the step that completes the route (back at the depot with every node
served) also subtracts the distance from there to the depot (0). An invalid node (visited, the depot when
at it, or a demand over what is left) gives `-2 * num_nodes * sqrt(2)` (float32).""",
    starting_state=_START + """ Coordinates uniform on [0, 1), demands uniform integers 1..max_demand - 1; the
vehicle is full, at the depot.""",
    termination="Every customer served and the vehicle back at the depot, or an invalid node chosen (the state "
    "is left as it was).",
))

ENVS.append(EnvDoc(
    title="Snake",
    env_types=("JumanjiSnake",),
    summary="jumanji's Snake: a snake on a 12 x 12 grid eats fruit and grows by one square for each.",
    observation_text="""`grid` (float32, rows x cols x 5): body, head, tail and fruit (1 or 0), and each body
square's age along the snake (its `body_state`, the head `length` and the tail 1) divided by the largest;
`step_count` (int32); `action_mask` (bool, 4): the moves that stay on the grid and off the body (the tail
moves on, so its square is free).""",
    action_text="0 up, 1 right, 2 down, 3 left.",
    reward="1 for eating the fruit, else 0.",
    starting_state=_START + " A one-square snake at a uniform square, the fruit uniform over the free squares.",
    termination="""An illegal move (off the grid or into the body), a snake that fills the grid, or `time_limit`
steps (4000), which jumanji counts a termination. The engine's time limit (the same number of steps) marks
that step truncated as well.""",
))

ENVS.append(EnvDoc(
    title="Sokoban",
    env_types=("JumanjiSokoban",),
    summary="""jumanji's Sokoban: the agent pushes 4 boxes onto 4 targets in a 10 x 10 level. rlpool ships no
levels. `generator="huggingface"` (jumanji's default) plays DeepMind's Boxoban levels, which jumanji downloads
from the Hugging Face hub (`InstaDeepAI/boxoban-levels`, `<dataset_name>.npy`) and rlpool does not: the file
is `levels_file` where given, else the one `hf_hub_download` left in the Hugging Face cache
(`$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `~/.cache/huggingface/hub`); without either, making the task is a
ValueError saying so. Any file of uint8 (N, 10, 10, 2) (`[..., 0]` the fixed grid, `[..., 1]` the variable
one, codes 0..4, one agent per level) can be given as `levels_file`. `generator="toy"` (jumanji's ToyGenerator,
2 levels) and `"simple_solve"` (SimpleSolveGenerator, 1 level) need no download: their levels are read
(parsed, never run) from jumanji 1.1.2's `generator.py`, an installed jumanji's where its sha256 matches, else
the pinned wheel's, fetched with pip once into rlpool's cache.""",
    observation_text="""`grid` (uint8, 10 x 10 x 2): `[..., 0]` the variable grid (0 empty, 3 agent, 4 box),
`[..., 1]` the fixed grid (0 floor, 1 wall, 2 target); `step_count` (int32). Info: `prop_correct_boxes`
(float32, boxes on targets / 4) and `solved` (bool), jumanji's extras.""",
    action_text="""0 up, 1 right, 2 down, 3 left. A move off the grid or into a wall, or a push of a box off the
grid, into a wall or into another box, leaves everything as it was (a step all the same).""",
    reward="""float32: boxes on targets after the step minus before, plus 10 when all 4 are, plus -0.1 (jumanji's
DenseReward).""",
    starting_state="""A level drawn uniformly from the set (the first int(`proportion_of_files` x N) levels of
a Boxoban file; the toy levels) with jumanji's key, or always level `level_index` (EnvPool's
`sokoban_level_index`) where it is >= 0; SimpleSolveGenerator's one level needs no draw.""",
    termination="""All 4 boxes on targets, or `time_limit` steps (120), which jumanji counts a termination. The
engine's time limit (the same number of steps) marks that step truncated as well.""",
))

# -- multi-agent: Cleaner, Connector

ENVS.append(EnvDoc(
    title="Cleaner",
    env_types=("JumanjiCleaner",),
    summary="""jumanji's Cleaner: 3 agents, all starting in the top-left square of a 10 x 10 maze (recursive
division), clean its dirty squares by walking over them. A multi-agent env: an action per agent, every
observation entry with the agent axis first.""",
    observation_text="""`grid` (int8, agents x rows x cols): 0 dirty, 1 clean, 2 wall, the same on every agent's
row; `agents_locations` (int32, agents x 2): each agent's (row, col); `action_mask` (bool, agents x 4): each
agent's moves that stay on the grid and off the walls; `step_count` (int32, agents), the same for all. Info:
`ratio_dirty_tiles` (float32) and `num_dirty_tiles` (int32), jumanji's extras.""",
    action_text="""One move per agent: 0 up, 1 right, 2 down, 3 left. A move its mask refuses leaves that agent
where it is and ends the episode.""",
    reward="""One reward shared by every agent: the number of squares cleaned this step minus
`penalty_per_timestep` (0.5), float32.""",
    starting_state=_START + """ The maze by recursive division (jumanji's maze_generation), every open square
dirty but the top-left one, where all agents start.""",
    termination="""For all agents at once: every square clean, a move a mask refuses, or `time_limit` steps
(num_rows * num_cols = 100 by default), which jumanji counts a termination. The engine's time limit (the same
number of steps) marks that step truncated as well.""",
))

ENVS.append(EnvDoc(
    title="Connector",
    env_types=("JumanjiConnector",),
    summary="""jumanji's Connector: 10 agents on a 10 x 10 grid each walk from their start to their target; every
square an agent leaves becomes its path, which no agent may enter. A multi-agent env: an action and a reward
per agent, every observation entry with the agent axis first. EnvPool's `Connector-v2` is this task.""",
    observation_text="""`grid` (int32, agents x size x size), the same on every agent's row: 0 empty, and for
agent `i` `3i + 1` its path, `3i + 2` its position, `3i + 3` its target; `action_mask` (bool, agents x 5):
each agent's no-op (always) and the moves onto an empty square or its own target, none once connected;
`step_count` (int32, agents), the same for all. Info: `num_connections` (int32), `ratio_connections`
(float32) and `total_path_length` (int32), jumanji's extras.""",
    action_text="""One action per agent: 0 no-op, 1 up, 2 right, 3 down, 4 left. A move its mask refuses is a
no-op; two agents moving onto one square: the one with the lower id stays where it was.""",
    reward="""Per agent (float32): 1 on the step it reaches its target, and -0.03 every step it starts not
connected.""",
    starting_state=_START + """ jumanji's RandomWalkGenerator: agent by agent a start on a free square that is
not surrounded and a first step next to it, then all agents walk at once (up to int(1.5 * size) steps, moves
weighted by a softmax away from the start) while any can move; where each walk ends is its agent's target, and
the agents stand on their starts.""",
    termination="""For all agents at once: every agent connected or without a legal move (a termination), or
`time_limit` steps (50), a truncation.""",
))


# -- multi-agent: LevelBasedForaging, RobotWarehouse

ENVS.append(EnvDoc(
    title="LevelBasedForaging",
    env_types=("JumanjiLevelBasedForaging",),
    summary="""jumanji's LevelBasedForaging: 2 agents with levels walk an 8 x 8 grid and load its 2 food items
together: a food is eaten when the levels of the agents loading next to it add up to its level. A multi-agent
env: an action per agent, every observation entry with the agent axis first.""",
    observation_text="""`agents_view` (int32, agents x 3 (num_food + agents), jumanji's VectorObserver): for each
agent, (row, col, level) of every food, then of itself, then of the other agents, positions relative to its
field of view (fov, 8: the whole grid), (-1, -1, 0) for one out of view or eaten; with `grid_observation`, the
GridObserver's (agents x 3 x (2 fov + 1) x (2 fov + 1)) windows of agent levels, food levels and free squares.
`action_mask` (bool, agents x 6): moves onto a free square in the grid, and load next to an uneaten food;
`step_count` (int32, agents), the same for all. Info: `percent_eaten` (float32), jumanji's extra.""",
    action_text="""One action per agent: 0 no-op, 1 up, 2 down, 3 left, 4 right, 5 load. A move off the grid,
onto a food or onto another agent's square leaves the agent where it is, as do moves of several agents onto one
square.""",
    reward="""Per agent, float32: for each food eaten this step, the agent's level times the food's level, divided
by (the sum of the loaders' levels x the total food level) (`normalize_reward`), so all the food is worth 1;
less `penalty` (0) for every agent where a food's loaders fall short.""",
    starting_state=_START + """ Foods off the edge, no two adjacent; agents on distinct squares outside the rows
jumanji's generator masks; agent levels uniform 1..2; each food's level the sum of the agents' levels
(`force_coop`).""",
    termination="""For all agents at once: every food eaten (a termination), or `time_limit` (100) steps, a
truncation.""",
))

ENVS.append(EnvDoc(
    title="RobotWarehouse",
    env_types=("JumanjiRobotWarehouse",),
    summary="""jumanji's RobotWarehouse: 4 robots drive a 20 x 10 warehouse floor of 80 shelves (2 x 3 clusters 8
high), carry requested shelves to the two goal squares at the bottom and bring them back. A multi-agent env:
an action per agent, every observation entry with the agent axis first.""",
    observation_text="""`agents_view` (int32, agents x 66 for `sensor_range` 1): each robot's row, column,
carrying flag, one-hot direction and highway flag, then for every other square of its (2 r + 1)^2 window a robot
flag and that robot's one-hot direction (its own square skipped), then per square a shelf flag and whether it is
requested; `action_mask` (bool, agents x 5): a forward carrying a shelf onto another shelf refused;
`step_count` (int32, agents), the same for all. Info, as EnvPool's: `shelf_positions` (int32, shelves x 2: row,
column) and `shelf_requested` (bool, shelves).""",
    action_text="""One action per robot: 0 no-op, 1 forward, 2 turn left, 3 turn right, 4 toggle load. An action
the mask refuses is a no-op; robots act in order; a no-op or toggle of a robot carrying a shelf off the highways
puts the shelf down.""",
    reward="""One reward shared by every robot (float32): 1 per goal square holding a requested shelf this step;
that shelf then leaves the request queue for one drawn uniformly from the others (from the State's key).""",
    starting_state=_START + """ Robots on distinct uniform squares, facing uniform directions, carrying
nothing; every shelf at its place; the request queue `request_queue_size` (8) distinct uniform shelves.""",
    termination="""For all robots at once: two robots on one square (a collision), or `time_limit` (500) steps,
which jumanji counts a termination. The engine's time limit (the same number of steps) marks that step
truncated as well.""",
))


# -- multi-agent: MultiCVRP, MMST

ENVS.append(EnvDoc(
    title="MultiCVRP",
    env_types=("JumanjiMultiCVRP",),
    summary="""jumanji's MultiCVRP (vehicle routing with soft time windows): 2 vehicles of capacity 60 leave a
depot (node 0) on a 10 x 10 map to serve 20 customers, moving at once. A multi-agent env: the vehicles are the
agents, an action per vehicle, every observation entry with the agent axis first.""",
    observation_text="""The same on every vehicle's row: `nodes.coordinates` (float32, (num_customers + 1) x 2,
the depot first), `nodes.demands` (int32; jumanji's int16): what each node still wants, 0 once served;
`windows.start`, `windows.end` (float32): each customer's time window; `coeffs.early`, `coeffs.late` (float32):
its penalty per unit of time early or late. Each vehicle's own: `vehicles.coordinates` (float32, 2),
`vehicles.local_times` (float32): the distance it has driven, `vehicles.capacities` (int32; jumanji's int16):
what it can still load, `action_mask` (bool, num_customers + 1): the customers with demand its capacity covers,
and the depot.""",
    action_text="""The node each vehicle drives to, 0 (the depot, which refills it) .. num_customers. A node
without demand or beyond the vehicle's capacity sends it to the depot instead, and of vehicles picking the same
node only the first (lowest index) gets it; the others go to the depot.""",
    reward="""One reward, every vehicle's (float32): minus the distance the vehicles drove this step, minus the
time penalties they took at the nodes they reached (early: window start less arrival time, times the node's
early coefficient; late: arrival less window end, times its late coefficient). On the step past 2 *
num_customers steps, instead: minus twice the depot's distance to every customer with demand left, minus the
time penalties of reaching them at the vehicles' mean time plus that distance.""",
    starting_state=_START + """ Coordinates uniform on [0, 10); demands uniform integers 0..9 (the depot's 0)
scaled to the vehicles' total capacity (times 120 over their sum, truncated), at most 10; window starts
uniform on [0, 10), ends 20 later; early coefficients uniform on [0, 0.2), late on [0, 1) (the depot's 0).
Every vehicle full, at the depot.""",
    termination="""Every demand served with every vehicle back at the depot, or step 2 * num_customers (40),
after which jumanji's step count passes its limit: both terminations, for every vehicle at once. The engine's
time limit (40 steps, EnvPool's) marks that last step truncated as well.""",
))

ENVS.append(EnvDoc(
    title="MMST",
    env_types=("JumanjiMMST",),
    summary="""jumanji's MMST (multi minimum spanning tree): 3 agents on a random connected graph of 36 nodes and
72 edges each connect their 4 nodes by walking along its edges; a utility node (one of no agent's) an agent
stands on is closed to the others. A multi-agent env: the next node per agent, every observation entry with
the agent axis first.""",
    observation_text="""The same on every agent's row: `node_types` (int32, num_nodes), agent 0's view as
jumanji gives it: -1 a utility node, 2a + 1 a node agent a must connect, 2a a node agent a has reached;
`adj_matrix` (int32, num_nodes x num_nodes, 0/1); `step_count` (int32). Each agent's own: `positions` (int32),
its node; `action_mask` (bool, num_nodes): the nodes joined to its node and open to it, none once it has
finished. Info: `num_connections` (float32, the agents' nodes reached beyond their first, summed) and
`ratio_connections` (float32, their mean share), jumanji's extras.""",
    action_text="""The node each agent moves to, 0..num_nodes - 1. A node not joined to its node (or closed to
it) leaves it where it is; agents picking the same node get it in a random order (the State's key), the
first only; a node the agent has reached before is walked to again; a finished agent stays.""",
    reward="""One reward shared by every agent (float32), the sum over the agents not finished before the step:
10 for reaching one of its nodes not reached before, 0 for a lost tie, -2 for a node not joined to its node,
else -1.""",
    starting_state=_START + """ The nodes split into one consecutive block per agent; each block a random-walk
spanning tree plus random edges, the blocks joined by random edges (no node past degree max_degree + 1, 6);
each agent's nodes a uniform draw of 4 from its block, it starts on the first.""",
    termination="""Every agent finished (all its nodes on its path), or `time_limit` (70) steps, which jumanji
counts a termination, for every agent at once. The engine's time limit (the same 70 steps) marks that last step
truncated as well.""",
))


# -- multi-agent: SearchAndRescue

ENVS.append(EnvDoc(
    title="SearchAndRescue",
    env_types=("JumanjiSearchAndRescue",),
    summary="""jumanji's SearchAndRescue: 2 searchers, steered by continuous [rotation, acceleration] actions,
look for 40 targets that drift by a random walk on the unit square with wrapped edges. A multi-agent env: an
action per searcher, every observation entry with the agent axis first.""",
    observation_text="""`searcher_views` (float32, agents x 3 x 128): each searcher's 128 rays over its view cone
(+-0.4 pi about its heading): channel 0 the other searchers within 0.4, channel 1 the found and channel 2 the
unfound targets within 0.1, each ray the distance (over the range) to the nearest one it crosses, -1 for none;
`targets_remaining` (float32, agents): the share of targets not yet found, the same for all; `step` (int32,
agents), the same for all; `positions` (float32, agents x 2): each searcher's position. Info, the State's as
EnvPool's info has it: `searcher_headings`, `searcher_speeds` (float32, agents), `target_positions`,
`target_velocities` (float32, targets x 2), `target_found` (bool, targets).""",
    action_text="""Box(-1, 1, (agents, 2), float32): per searcher, the rotation (times searcher_max_rotate x pi,
0.25 pi) and the acceleration (times searcher_max_accelerate, 0.005; the speed kept in 0.005..0.02). Values
outside the box are clipped, as jumanji does; non-finite ones are refused.""",
    reward="""Per searcher (float32): 1 for each target it finds this step (within target_contact_range, 0.02,
and inside its view cone, not found before), split equally between the searchers finding it in the same step,
times (time_limit - step) / time_limit.""",
    starting_state=_START + """ Searchers at uniform positions with uniform headings and speeds in
[min_speed, max_speed); targets at uniform positions, at rest, none found.""",
    termination="""Every target found, or `time_limit` (400) steps, which jumanji counts a termination, for
every searcher at once. The engine's time limit (the same 400 steps) marks that last step truncated as well.""",
))


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/jumanji.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(
        name="jumanji",
        title="Jumanji",
        intro="""
jumanji 1.1.2's environments (InstaDeep, JAX: combinatorial problems, puzzles and grid worlds), in C++, by
EnvPool 1.2.7's ids. Observations are dicts with jumanji's field names and dtypes (a nested field as a
nested dict: BinPack's `ems.x1`); where jumanji has an `action_mask`, it is in the observation, as in
jumanji. A multi-discrete action (BinPack's `[ems, item]`) is a `MultiDiscrete` space.

Keys: env `i` of a pool seeded with `s` starts from `jax.random.PRNGKey(s + i)` (its first reset is
jumanji's `env.reset(PRNGKey(s + i))`), each later reset splits the env's key (`key, k = split(key)`,
`env.reset(k)`), and a step takes no key (jumanji keeps an episode's randomness in its state). JAX's PRNG
is reproduced bit for bit (threefry, and jax.random's samplers as XLA computes them on a CPU), so the
same seed gives jumanji's own instances and episodes; `tests/envs/jumanji` compares every env with jumanji
step by step from the same key. `terminated` is jumanji's termination, `truncated` its truncation; where
jumanji ends an episode at its own time limit with a termination (Snake, RubiksCube, ...) and that is also the
task's `max_episode_steps`, the step has both flags, as gymnasium's `TimeLimit` gives them.

The multi-agent envs (Cleaner, Connector, LevelBasedForaging, MMST, MultiCVRP, RobotWarehouse,
SearchAndRescue, whose actions are continuous) are on rlpool's
multi-agent API (docs/multi_agent.md): actions `[N, A]`, rewards and flags `[N, A]` (jumanji's per-agent reward
where it has one, else its one reward on every agent), and every observation entry with the agent axis:
a field jumanji gives per agent (`agents_view`, `action_mask`, ...) split over it, a field it gives once for
all (`grid`, `step_count`, ...) repeated on every agent's row. EnvPool 1.2.7, and rlpool's EnvPool layer, give
them as one env each: those fields once, a vector action, one reward (docs/multi_agent.md).

Sokoban's default levels are DeepMind's Boxoban set, which jumanji downloads from the Hugging Face hub at run
time and no package on PyPI holds: rlpool takes them from a file you name or from the Hugging Face cache, and
plays jumanji's own toy levels without any download (its section below). Sudoku's puzzles and PacMan's maze
come from jumanji's pinned wheel (read, never run).

`render_mode="rgb_array"` draws, in C++, a documented picture of each env's state: what jumanji's matplotlib
viewer shows, in its colours (matplotlib's "hsv" tables computed as matplotlib builds them; the graph envs'
nodes where jumanji's `spring_layout` puts them; Sokoban's tiles are jumanji's own images, from its wheel).
jumanji's figures themselves (antialiased matplotlib) are not reproduced pixel for pixel; docs/rendering.md
says what each picture shows.
Where EnvPool 1.2.7's defaults differ from jumanji's (CVRP's capacity 20 against 30, RubiksCube-partly-scrambled's
20 scrambles against 7), rlpool follows jumanji (docs/correctness.md).
""",
        envs=tuple(ENVS),
    )
