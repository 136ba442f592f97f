// GardnerChess (5x5 chess), as pgx 2.6.0 plays it (pgx/gardner_chess.py, pgx/_src/gardner_chess_utils.py).
//
// The board is pgx's: squares 0..24 as file * 5 + rank, seen from the side to
// move (the opponent's pieces negative, the ranks flipped for black), pieces
// 1..6 pawn, knight, bishop, rook, queen, king. No castling, no en passant, no
// double pawn step; a pawn reaching the last rank becomes a queen unless an
// underpromotion action names a rook, bishop or knight.
// Actions: pgx's AlphaZero-style labels, from * 49 + plane (planes 0..8
// underpromotions, 9..48 queen-like and knight moves), all in the mover's view.
// The game ends with checkmate (+1/-1), stalemate, 100 halfmoves without a
// capture or pawn move, insufficient material (OpenSpiel's test, as pgx has
// it), the third occurrence of a position (by pgx's zobrist hash, whose quirks
// -- a queen promotion hashed as a pawn -- are kept), or after 256 steps (0 each).
// The first player is drawn with probability 1/2 each (pgx: jax.random.bernoulli);
// nothing else is random.
// Observation: pgx's 5 x 5 x 115 float32 planes per player: 8 positions of
// history (that player's pieces, the opponent's, repetition 0 / >= 1), the
// player's color, steps / 256 and halfmoves / 100.
// Illegal actions: pgx's _step runs on any label and its board after it shows
// in the observation, so play_illegal follows it literally, out-of-range
// indices included (JAX wraps negative indices and clamps gathers, e.g. a label
// whose target is off the board lands on square 24).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kActions = 25 * 49;
constexpr int kPlanes = 115;
constexpr int kMaxSteps = 256;       // pgx's MAX_TERMINATION_STEPS
constexpr int kHashSlots = kMaxSteps + 1;
constexpr std::uint64_t kInitHash = 0x45e8e2e678bbbe6fULL;  // pgx's INIT_ZOBRIST_HASH, words (low, high)
constexpr std::array<std::int8_t, 25> kInitBoard = {4, 1, 0, -1, -4, 2, 1, 0, -1, -2, 3, 1, 0, -1, -3,
                                                    5, 1, 0, -1, -5, 6, 1, 0, -1, -6};
enum : std::int8_t { kEmpty = 0, kPawn = 1, kKnight = 2, kBishop = 3, kRook = 4, kQueen = 5, kKing = 6 };

// pgx's zobrist keys (jax.random from PRNGKey(238942)), each pair of uint32 words as low | high << 32.
constexpr std::uint64_t kZobristSide = 0x1bbb317e792cfb79ULL;
// ZOBRIST_BOARD[25][13]: square (white's view), piece + 6 (white positive).
constexpr std::array<std::uint64_t, 25 * 13> kZobristBoard = {
    0x5907e31412fe2de1ULL, 0x4dc5950d35a17aebULL, 0x76e78e003f655ba1ULL, 0x5ae36337241d1533ULL,
    0x5cab2eec125901edULL, 0x02a5ed9e04fe0888ULL, 0x29859edd7fa0ac51ULL, 0x225c2c7e3564dfacULL,
    0x1b39572f2d6fa8bdULL, 0x3923fdc008d83943ULL, 0x7afa689a43112947ULL, 0x6c731fc1380611acULL,
    0x60fcf74c277cdedbULL, 0x622e2ba96c48f6e8ULL, 0x0c511f5c0de0d358ULL, 0x2e198ab7267dc924ULL,
    0x78363f797cea0236ULL, 0x61dfff2b60c1baa3ULL, 0x7fd46e63140f04f2ULL, 0x73826794049550e3ULL,
    0x2df4167d30c72f1cULL, 0x5112a16f15ef2bb0ULL, 0x1f5347b038b562ffULL, 0x68f6463217694b5dULL,
    0x21272e706697512cULL, 0x3b7a273a7ece1832ULL, 0x151ed5c25c9e0244ULL, 0x6f252c266ba66521ULL,
    0x6592667559b61a54ULL, 0x3edbdb9f4a96657dULL, 0x3bef85e1505864e4ULL, 0x4c9061ff69c03306ULL,
    0x54df93bb5a8fc2f3ULL, 0x17af18781c055ceeULL, 0x63f725cc2b1b0447ULL, 0x110edece1a34dfbeULL,
    0x1a2b977754a01943ULL, 0x27baf07209a78f18ULL, 0x17cd7efa5bb5c25aULL, 0x12a29b8529c8f496ULL,
    0x57607c4d29a74f5fULL, 0x3e7155f32e71eb77ULL, 0x2551d4671ecab2f6ULL, 0x1720b4810cdd4e3bULL,
    0x63fc0dcb71fa71d0ULL, 0x6ed6c22f74550decULL, 0x0fe115576d59c791ULL, 0x0ffcaa026fc308abULL,
    0x79c4b51a4cbeb1c0ULL, 0x0ce5f1d336df4bd4ULL, 0x0063b5b026c5c949ULL, 0x28005618598ce25eULL,
    0x041d776517733031ULL, 0x29fd3600779d274eULL, 0x156ad0a33d933df3ULL, 0x331b32ba5626266eULL,
    0x7e20978659ec99acULL, 0x51dcd8957cf9b165ULL, 0x37e4f9cf435eb685ULL, 0x6d6cb13e6e6ef1a5ULL,
    0x7d541b283729c556ULL, 0x392a7be927457a30ULL, 0x7bf428e605a84574ULL, 0x07635295091edce8ULL,
    0x5fd9f66e3729df7cULL, 0x2a92005054617ea2ULL, 0x063f8479421dabf4ULL, 0x1041fb184a237560ULL,
    0x21efe8406530d458ULL, 0x4c5c91dc642e837aULL, 0x2fb257d32f1ff50dULL, 0x4bd4162912e76525ULL,
    0x086877ba0b3d60eeULL, 0x4dceb7db66fccb6bULL, 0x20b5e53c3f17ba31ULL, 0x60c7208c6185b31fULL,
    0x39ae9c330344f27aULL, 0x3541ede6383a2d46ULL, 0x12defcee4414c60cULL, 0x14758db173e7fa2cULL,
    0x3026770a12869a57ULL, 0x3f6653c35a38e47bULL, 0x62f0a4e0401ed6a6ULL, 0x539403b64ae7eb20ULL,
    0x565545947461e9deULL, 0x221b41b21ad99392ULL, 0x1fa1ee3004272e9fULL, 0x0941e69b4b16be38ULL,
    0x1a2cc1d07b0620dcULL, 0x3a1a8bbf55343b5aULL, 0x28aaddcb6c3aab30ULL, 0x32c145ce4b4fdf73ULL,
    0x129aa3c232a5691dULL, 0x0a269226690f7f34ULL, 0x6950d6ad5656902bULL, 0x5300ffb1420cd2e0ULL,
    0x589365026ef2f437ULL, 0x48b223a072ec5c2cULL, 0x3fd6b5344531e6baULL, 0x0397ba1770a9af1eULL,
    0x04a249ac060f1c4cULL, 0x43b690e3070e5700ULL, 0x380b351001d96ee2ULL, 0x39faf3b7288d9f9eULL,
    0x404ea86744ed1b40ULL, 0x731e3d63032ffdc1ULL, 0x7ca9620d25fc0686ULL, 0x0c82616679d6b3beULL,
    0x3239dec3528a8d25ULL, 0x2c75d8e752f4bbc7ULL, 0x5308a7521906de94ULL, 0x1b437ceb2cdb5c3bULL,
    0x3597f5ef26c41c7fULL, 0x341a72754f01a29cULL, 0x19ea4d3007340d1bULL, 0x10da65cd2839efebULL,
    0x37b5189f4a91d0f1ULL, 0x7ddf711b672d7b10ULL, 0x57ecb8772d34fa60ULL, 0x4151edd2554b2bc6ULL,
    0x2e6e46f9084c764eULL, 0x1d16e10979351315ULL, 0x7967d391341d06bdULL, 0x51e1bf6d603def12ULL,
    0x3b0498c60499f881ULL, 0x4ce2f6cc6aac4193ULL, 0x008ae9d44315ed76ULL, 0x4461a95957e97e40ULL,
    0x4784f49116124fe3ULL, 0x5f8084f7684a3315ULL, 0x4adbfe266ef540b9ULL, 0x0cf38f3e52440a26ULL,
    0x5898eb203848f39aULL, 0x38145b1b2d3d901dULL, 0x63edc2302f0dac6aULL, 0x1d6b8c847e933c9bULL,
    0x117f619338f9e00aULL, 0x29d0000229f7119fULL, 0x0d03bca032a50ac5ULL, 0x77fc3f802ffac3edULL,
    0x7381b67d5589ed84ULL, 0x3eb391503e129fbaULL, 0x2603ba101b7405a5ULL, 0x74acfed207d89eeaULL,
    0x72d9da4c0a154c97ULL, 0x5c97bf5864bf8981ULL, 0x33973b5a1c4795c9ULL, 0x6a708ce21c25785eULL,
    0x1a73beec6a9e9f96ULL, 0x716b84ee38fdc0faULL, 0x217aafdb374e87c5ULL, 0x7b590d7d10c0add9ULL,
    0x3c0692243d947a5dULL, 0x602fd960137917a0ULL, 0x27c542bf12be768eULL, 0x583b18da1eb36bf2ULL,
    0x6a38d4d00c808576ULL, 0x68858abf2910da99ULL, 0x6aa9b7975245679cULL, 0x06db172e1a9a855dULL,
    0x206f65b7317d822aULL, 0x6daa242559d11e17ULL, 0x298e9e5473119e45ULL, 0x7a1e1e4a37bdab2cULL,
    0x43cced9469456e2aULL, 0x59d277540ea7cd40ULL, 0x380b871045b0e6f4ULL, 0x45f3d3914735c065ULL,
    0x47d7a8e174107b80ULL, 0x11e8a36722b1e933ULL, 0x25c2b3af7417fad0ULL, 0x16772ba42fa96845ULL,
    0x6c15b9fe7b62b6dfULL, 0x29f1b2fb54d0efd3ULL, 0x2ad58bc857a4fdecULL, 0x7aeaa2477d071bdeULL,
    0x4d2acb897ae85a11ULL, 0x272e3b6445f2b339ULL, 0x5c3c39fa4688e115ULL, 0x4466f1b23bf203deULL,
    0x0cf6f33257ec6d69ULL, 0x5aafc21c1d4239daULL, 0x6efb1b06355bd2d0ULL, 0x1399401e45534d7cULL,
    0x7226ac08516e0099ULL, 0x5b02b7ab68f2226aULL, 0x2536bfc80359a671ULL, 0x0b5e16a269c9cc4fULL,
    0x0c8acf0112aa3088ULL, 0x4be37dc91c2830f8ULL, 0x14e0cfad23d58ff5ULL, 0x22477e087b68c416ULL,
    0x476919d22838732dULL, 0x68afcea711ed2022ULL, 0x4c51a06f3c15ef4eULL, 0x2aeddacb0a6ac86fULL,
    0x389e09357dac2fd2ULL, 0x6205d69e35736e83ULL, 0x0ce77dde29017c46ULL, 0x7f682c4b547a7410ULL,
    0x5e685aea1af58745ULL, 0x5c46216d265f0c3fULL, 0x4d1700470cacc6b2ULL, 0x0610fdf73dfd0821ULL,
    0x1368745117228931ULL, 0x55a30559459801d3ULL, 0x487432c80ad54c89ULL, 0x42560b8b4270a70fULL,
    0x60a06e952928d28aULL, 0x4e95726654c792c4ULL, 0x62f8b8a86eced70bULL, 0x3b7bb1c562137254ULL,
    0x5352b2bd77f511e7ULL, 0x60cd8488714f68cbULL, 0x7f6284432d007a91ULL, 0x6e9341df0e14ad22ULL,
    0x76e15b8f2dd0455bULL, 0x1c534a2422ecd0ddULL, 0x0f49f8c255e78b25ULL, 0x5a8f726f503fae5cULL,
    0x43f3d9ae6521e4d1ULL, 0x14e60a6f7c695ef9ULL, 0x3b1dbbd920eee65aULL, 0x067aa2c97022aaddULL,
    0x21ebe11b1de6fc67ULL, 0x7061c41253c307dcULL, 0x3b2fe94d3ddae115ULL, 0x54848a4c7046ee78ULL,
    0x4a9907c232ea8307ULL, 0x24c3643f0701d587ULL, 0x26bff51f1e04dbf7ULL, 0x109f3b183828bcb8ULL,
    0x12ec01d14bfca1cdULL, 0x72e34f40068c67edULL, 0x58f013830490c80bULL, 0x168dd38d300c926cULL,
    0x34b502674adb3574ULL, 0x02103894204d1bf1ULL, 0x7d77de672dc073a7ULL, 0x14b8bdf3645632e3ULL,
    0x00b2f4bc793f95baULL, 0x66170cfe731c5609ULL, 0x142cfe704c97242fULL, 0x14fba95434348b2eULL,
    0x57dec2fd41c39e0dULL, 0x28e71498575b4392ULL, 0x0bad98c25f7c3cfeULL, 0x46aa8c22742c23e6ULL,
    0x7d4080ac686ff967ULL, 0x2a525501647e7071ULL, 0x4edff11873590868ULL, 0x6a6be5dc6c4672c8ULL,
    0x566bb0f32378a8eeULL, 0x368b56866f9e559aULL, 0x6425c1ad7c01e909ULL, 0x6567b13533136c1eULL,
    0x3e21d8730c9a1624ULL, 0x1cf9ec8172bb7e76ULL, 0x1c49f71a1c553d45ULL, 0x1f1f8c1204abfdecULL,
    0x275996f6269cbb4aULL, 0x74de82830a5cbf4fULL, 0x56d7cbec0feca51aULL, 0x70edbef91963a5e0ULL,
    0x5746bb7c705fbad1ULL, 0x22d8aa916e9fccf4ULL, 0x7e0527b3254dc23aULL, 0x4b4258195b8e5299ULL,
    0x3ae9978b370356f5ULL, 0x2daf3ce915a416ddULL, 0x14a3cba11ec18ed4ULL, 0x50264f6b23085a2eULL,
    0x6caa77f16f7c33a1ULL, 0x6302083a3b2c86aaULL, 0x4c1058535cd55c8bULL, 0x4e335c73460637a5ULL,
    0x0e037235506efd72ULL, 0x2ae1aff373e92d36ULL, 0x7f4b6d7712ee9e42ULL, 0x2df2cba9448db4f8ULL,
    0x6dc18f353cd958ebULL, 0x782717745ec4e9e0ULL, 0x4e050ad963223419ULL, 0x13286aa6299e0a46ULL,
    0x78c04eee159bb997ULL, 0x359bf8d115f61f30ULL, 0x795eeb71666d720cULL, 0x00828a6101078cfbULL,
    0x23164d351c738a56ULL, 0x3fee21bb310fbe82ULL, 0x1e5e65410b820693ULL, 0x1ad596a778ba17fbULL,
    0x496f91970fe6efdeULL, 0x45510cf162bce0a0ULL, 0x4e73d6e36638fda1ULL, 0x5e8ab3483a3c8714ULL,
    0x101b21f46a9a758bULL, 0x7f03be376b433f91ULL, 0x744b30ad2a4bf7e2ULL, 0x2fe04d114950f631ULL,
    0x67dc87f574ee9141ULL, 0x64767f40624b3e16ULL, 0x07901f6330774399ULL, 0x64b2147a44961215ULL,
    0x5a4036d41f78d51eULL, 0x762f367c551fddfcULL, 0x1e6db9b538c22639ULL, 0x3f7b99f46ba42854ULL,
    0x3b316ccb535d1a35ULL, 0x07b0bd6f3f6b64a5ULL, 0x68f99a1c69a45f2eULL, 0x0024347f1e49294eULL,
    0x25ca76785624d648ULL, 0x421f424d3a149d92ULL, 0x1208fb1c32560638ULL, 0x584911195a0d48aaULL,
    0x20ce1b195ecc3caeULL, 0x309ba949009089b6ULL, 0x45b9441f3aa6a4ecULL, 0x0e30878e18d792d5ULL,
    0x4f6e22ad254ca031ULL, 0x3a92f5955cbbfd58ULL, 0x6f5ea8030a13846dULL, 0x25025a003ee89763ULL,
    0x70a2d24016f68de6ULL
};

struct Maps {
  std::array<std::array<std::int8_t, 49>, 25> to{};     // pgx's TO_MAP: the target of (from, plane), -1 if none
  std::array<std::array<std::int8_t, 25>, 25> plane{};  // pgx's PLANE_MAP (queen-like and knight moves)
};

constexpr Maps make_maps() {
  Maps m{};
  for (auto& row : m.to) row.fill(-1);
  for (auto& row : m.plane) row.fill(-1);
  constexpr std::array<int, 3> kUnder = {+1, +6, -4};  // forward, right, left (in squares)
  for (int from = 0; from < 25; ++from) {
    if (from % 5 != 3) continue;
    for (int p = 0; p < 9; ++p) {
      const int to = from + kUnder[p % 3];
      if (to >= 0 && to < 25) m.to[from][p] = static_cast<std::int8_t>(to);
    }
  }
  constexpr std::array<int, 40> dr = {-4, -3, -2, -1, 1,  2,  3,  4,  0,  0,  0,  0,  0,  0,  0,  0,  -4, -3, -2, -1,
                                      1,  2,  3,  4,  4,  3,  2,  1,  -1, -2, -3, -4, -1, +1, -2, +2, -1, +1, -2, +2};
  constexpr std::array<int, 40> dc = {0,  0,  0,  0,  0,  0,  0,  0,  -4, -3, -2, -1, +1, +2, +3, +4, -4, -3, -2, -1,
                                      +1, +2, +3, +4, -4, -3, -2, -1, +1, +2, +3, +4, -2, -2, -1, -1, +2, +2, +1, +1};
  for (int from = 0; from < 25; ++from) {
    for (int p = 9; p < 49; ++p) {
      const int r = from % 5 + dr[p - 9], c = from / 5 + dc[p - 9];
      if (r < 0 || r >= 5 || c < 0 || c >= 5) continue;
      m.to[from][p] = static_cast<std::int8_t>(c * 5 + r);
      m.plane[from][c * 5 + r] = static_cast<std::int8_t>(p);
    }
  }
  return m;
}
constexpr Maps kMaps = make_maps();

constexpr int flip_pos(int x) { return x / 5 * 5 + 4 - x % 5; }

constexpr std::array<std::array<int, 2>, 8> kKnightSteps = {{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};
constexpr std::array<std::array<int, 2>, 8> kKingSteps = {{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};  // (dc, dr); even: orthogonal

constexpr bool on_board(int c, int r) { return c >= 0 && c < 5 && r >= 0 && r < 5; }

// pgx's _is_attacking from the side to move's view: can the opponent (negative
// pieces) move to `pos` by its pseudo-legal rules? (For a square holding the
// mover's piece this is the usual attack; pgx asks it of the king's square.)
bool attacked(const std::array<std::int8_t, 25>& b, int pos) {
  const int v = b[pos];
  if (v < 0) return false;
  const int c0 = pos / 5, r0 = pos % 5;
  for (const auto& s : kKnightSteps) {
    const int c = c0 + s[0], r = r0 + s[1];
    if (on_board(c, r) && b[c * 5 + r] == -kKnight) return true;
  }
  // The opponent's pawns move down the ranks: forward onto an empty square, diagonally onto a piece.
  if (r0 + 1 < 5) {
    if (v == 0 && b[c0 * 5 + r0 + 1] == -kPawn) return true;
    if (v > 0 && c0 > 0 && b[(c0 - 1) * 5 + r0 + 1] == -kPawn) return true;
    if (v > 0 && c0 < 4 && b[(c0 + 1) * 5 + r0 + 1] == -kPawn) return true;
  }
  for (int d = 0; d < 8; ++d) {
    const int dc = kKingSteps[d][0], dr = kKingSteps[d][1];
    const int slider = d % 2 == 0 ? -kRook : -kBishop;
    int c = c0 + dc, r = r0 + dr;
    if (on_board(c, r) && b[c * 5 + r] == -kKing) return true;
    for (; on_board(c, r); c += dc, r += dr) {
      const int p = b[c * 5 + r];
      if (p == 0) continue;
      if (p == slider || p == -kQueen) return true;
      break;
    }
  }
  return false;
}

// pgx's king square for the check test: argmin |board - KING| in the order of the flipped board.
int king_square(const std::array<std::int8_t, 25>& b) {
  int best = -1, best_d = 100;
  for (int j = 0; j < 25; ++j) {
    const int pos = flip_pos(j);
    const int d = std::abs(b[pos] - kKing);
    if (d < best_d) best = pos, best_d = d;
  }
  return best;
}

class GardnerChess final : public PgxEnv {
 public:
  explicit GardnerChess(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = 2, .num_actions = kActions, .obs_dtype = DType::kFloat32, .obs_shape = {5, 5, kPlanes}};
  }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    s_.hashes[0] = kInitHash;
    s_.board = kInitBoard;
    s_.history[0] = kInitBoard;
    current_player_ = static_cast<int>(rng.integer(2));  // pgx: jax.random.bernoulli(key)
    recount_reps();
  }

  void play(int action, Rng& /*rng*/) override {
    const int mover = current_player_;
    const int rep = apply(action);
    const bool has_legal = generate<true>(nullptr);
    terminated_ = !has_legal || s_.halfmove >= 100 || insufficient() || rep >= 2;
    if (!has_legal && attacked(s_.board, king_square(s_.board))) {  // checkmate
      rewards_[mover] = 1.0;
      rewards_[1 - mover] = -1.0;
    }
    if (s_.step_count >= kMaxSteps) terminated_ = true;
  }

  void play_illegal(int action, Rng& /*rng*/) override { apply(action); }

  void legal_actions(bool* mask) const override {
    std::fill_n(mask, kActions, false);
    generate<false>(mask);
  }

  void observe(int player, void* dst) const override {
    auto* out = static_cast<float*>(dst);
    const int color = player == current_player_ ? s_.turn : 1 - s_.turn;
    // The planes that are the same on every square (repetitions, color, counters) into the first
    // square, copied to the others; then each square's pieces.
    std::memset(out, 0, cell_bytes_);
    for (int i = 0; i < 8; ++i) out[i * 14 + 12 + (reps_[i] >= 1 ? 1 : 0)] = 1.0f;
    out[112] = static_cast<float>(color);
    out[113] = static_cast<float>(s_.step_count) / static_cast<float>(kMaxSteps);
    // XLA turns pgx's `/ 100.0` into a product with the float32 reciprocal: do the same, bit for bit.
    out[114] = static_cast<float>(s_.halfmove) * (1.0f / 100.0f);
    for (int n = 1; n < 25; n *= 2) std::memcpy(out + n * kPlanes, out, std::min(n, 25 - n) * cell_bytes_);
    for (int i = 0; i < 8; ++i) {
      const auto& h = s_.history[i];  // white's view
      for (int sq = 0; sq < 25; ++sq) {
        const int v = color == 0 ? h[sq] : -h[flip_pos(sq)];
        if (v == 0) continue;
        // pgx rotates the board (rot90): square x * 5 + r shows at row 4 - r, column x.
        float* cell = out + ((4 - sq % 5) * 5 + sq / 5) * kPlanes;
        cell[i * 14 + (v > 0 ? v - 1 : 5 - v)] = 1.0f;
      }
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    auto check_board = [](const std::array<std::int8_t, 25>& b, const char* name) {
      for (auto v : b) {
        if (v < -kKing || v > kKing) {
          throw std::invalid_argument(std::string("state's ") + name + " holds " + std::to_string(v) + ", expected -6..6");
        }
      }
    };
    check_board(s.board, "board");
    for (const auto& h : s.history) check_board(h, "board history");
    if (s.turn > 1) throw std::invalid_argument("state's turn is " + std::to_string(s.turn) + ", expected 0 or 1");
    if (s.step_count < 0 || s.step_count > kMaxStepCount) {
      throw std::invalid_argument("state's step count is " + std::to_string(s.step_count) + ", expected 0.." +
                                  std::to_string(kMaxStepCount));
    }
    if (s.halfmove < 0 || s.halfmove > kMaxStepCount) {
      throw std::invalid_argument("state's halfmove count is " + std::to_string(s.halfmove) + ", expected 0.." +
                                  std::to_string(kMaxStepCount));
    }
    for (auto u : s.unused) {
      if (u != 0) throw std::invalid_argument("state's unused bytes are not zero");
    }
    s_ = s;
    recount_reps();
  }

 private:
  static constexpr std::int32_t kMaxStepCount = 1 << 24;

  struct State {
    // pgx's _hash_history as a ring: the hash after step k in slot k % 257 (pgx keeps the
    // last 257, newest first), unused slots 0 as in pgx.
    std::array<std::uint64_t, kHashSlots> hashes{};
    std::int32_t step_count = 0;
    std::int32_t halfmove = 0;  // pgx's _halfmove_count
    std::array<std::array<std::int8_t, 25>, 8> history{};  // pgx's _board_history (newest first) in white's view
    std::array<std::int8_t, 25> board{};                   // pgx's _board: the side to move's view
    std::uint8_t turn = 0;                                 // pgx's _turn: 0 white, 1 black to move
    std::array<std::uint8_t, 6> unused{};
  };
  static_assert(sizeof(State) == kHashSlots * 8 + 8 + 200 + 25 + 1 + 6);

  std::uint64_t frame_hash(int i) const {
    const int slot = ((s_.step_count - i) % kHashSlots + kHashSlots) % kHashSlots;
    return s_.hashes[slot];
  }
  int count(std::uint64_t h) const {
    int n = 0;
    for (auto x : s_.hashes) n += x == h;
    return n;
  }
  // pgx's repetition count of each history position (the observation's planes).
  void recount_reps() {
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t h = frame_hash(i);
      reps_[i] = h == 0 ? 0 : count(h) - 1;
    }
  }

  // pgx's _step up to the legal mask, literally (any label): hash, move, flip, history.
  // Returns the new position's repetition count.
  int apply(int action) {
    auto& b = s_.board;
    ++s_.step_count;
    const int from = action / 49, plane = action % 49;
    const int to = kMaps.to[from][plane];
    const int under = plane < 9 ? plane / 3 : -1;
    const int to_ix = to < 0 ? to + 25 : to;  // JAX wraps -1 to the last square
    const bool white = s_.turn == 0;
    // _update_zobrist_hash
    std::uint64_t h = s_.hashes[(s_.step_count - 1) % kHashSlots];
    int src = white ? b[from] + 6 : -b[from] + 6;
    const int dst = white ? b[to_ix] + 6 : -b[to_ix] + 6;
    const int zfrom = white ? from : flip_pos(from);
    const int zto = !white && to >= 0 ? flip_pos(to) : to_ix;
    h ^= kZobristBoard[zfrom * 13 + src] ^ kZobristBoard[zfrom * 13 + 6] ^ kZobristBoard[zto * 13 + dst];
    if (under >= 0) {
      src = white ? src + 3 - under : src - (3 - under);
      if (src < 0) src += 13;  // JAX wraps a negative index, then clamps
      src = std::clamp(src, 0, 12);
    }
    h ^= kZobristBoard[zto * 13 + src] ^ kZobristSide;
    // _apply_move
    int piece = b[from];
    s_.halfmove = (b[to_ix] < 0 || piece == kPawn) ? 0 : s_.halfmove + 1;
    // pgx's `piece == PAWN & (from % 5 == 3) & (underpromotion < 0)` compares with 1 or 0.
    if (piece == ((from % 5 == 3 && under < 0) ? 1 : 0)) piece = kQueen;
    if (under >= 0) piece = std::array<int, 3>{kRook, kBishop, kKnight}[under];
    b[from] = kEmpty;
    b[to_ix] = static_cast<std::int8_t>(piece);
    // _flip
    std::array<std::int8_t, 25> flipped{};
    for (int i = 0; i < 25; ++i) flipped[i] = static_cast<std::int8_t>(-b[flip_pos(i)]);
    b = flipped;
    s_.turn ^= 1;
    current_player_ = 1 - current_player_;
    // _update_history
    std::memmove(&s_.history[1], &s_.history[0], 7 * sizeof(s_.history[0]));
    for (int i = 0; i < 25; ++i) s_.history[0][i] = s_.turn == 0 ? b[i] : static_cast<std::int8_t>(-b[flip_pos(i)]);
    s_.hashes[s_.step_count % kHashSlots] = h;
    const int rep = count(h) - 1;
    if (s_.step_count >= kHashSlots) {
      recount_reps();
    } else {
      for (int i = 7; i > 0; --i) reps_[i] = reps_[i - 1] + (h != 0 && frame_hash(i) == h ? 1 : 0);
      reps_[0] = h == 0 ? 0 : rep;
    }
    return rep;
  }

  bool insufficient() const {
    int pieces = 0, heavy = -2, bishops = 0, dark_bishops = 0;
    for (int i = 0; i < 25; ++i) {
      const int a = std::abs(s_.board[i]);
      pieces += a != 0;
      heavy += a >= kRook || a == kPawn;
      bishops += a == kBishop;
      dark_bishops += a == kBishop && i % 2 == 0;
    }
    return pieces <= 2 || (pieces == 3 && heavy == 0) ||
           (pieces == bishops + 2 && (dark_bishops == bishops || dark_bishops == 0));
  }

  // The legal moves of the side to move (pgx's _legal_action_mask): into `mask`, or,
  // with kAny, only whether there is one.
  template <bool kAny>
  bool generate(bool* mask) const {
    auto b = s_.board;
    const int king = king_square(b);
    // With the king where argmin finds it and not in check, a move from a square off every line
    // through the king cannot expose it (only sliders attack along lines; a capture only removes).
    const bool safe_unless_aligned = b[king] == kKing && !attacked(b, king);
    auto consider = [&](int from, int to, int piece) {
      const int dc = from / 5 - king / 5, dr = from % 5 - king % 5;
      const bool aligned = dc == 0 || dr == 0 || dc == dr || dc == -dr;
      bool ok = true;
      if (!safe_unless_aligned || from == king || aligned) {
        const std::int8_t taken = b[to];
        b[from] = kEmpty;
        b[to] = static_cast<std::int8_t>(piece == kPawn && from % 5 == 3 ? kQueen : piece);
        ok = !attacked(b, piece == kKing && from == king ? to : king);
        b[to] = taken;
        b[from] = static_cast<std::int8_t>(piece);
      }
      if (!ok) return false;
      if constexpr (!kAny) {
        mask[from * 49 + kMaps.plane[from][to]] = true;
        if (piece == kPawn && from % 5 == 3) {
          const int dir = to - from == 1 ? 0 : to - from == 6 ? 1 : 2;
          for (int k = 0; k < 3; ++k) mask[from * 49 + k * 3 + dir] = true;
        }
      }
      return true;
    };
    for (int from = 0; from < 25; ++from) {
      const int piece = b[from];
      if (piece <= 0) continue;
      const int c0 = from / 5, r0 = from % 5;
      bool found = false;
      if (piece == kPawn) {
        if (r0 + 1 < 5) {
          if (b[from + 1] == 0) found |= consider(from, from + 1, piece);
          if (c0 > 0 && b[from - 4] < 0) found |= consider(from, from - 4, piece);
          if (c0 < 4 && b[from + 6] < 0) found |= consider(from, from + 6, piece);
        }
      } else if (piece == kKnight || piece == kKing) {
        for (const auto& s : piece == kKnight ? kKnightSteps : kKingSteps) {
          const int c = c0 + s[0], r = r0 + s[1];
          if (on_board(c, r) && b[c * 5 + r] <= 0) found |= consider(from, c * 5 + r, piece);
        }
      } else {
        for (int d = 0; d < 8; ++d) {
          if ((d % 2 == 0 && piece == kBishop) || (d % 2 == 1 && piece == kRook)) continue;
          for (int c = c0 + kKingSteps[d][0], r = r0 + kKingSteps[d][1]; on_board(c, r);
               c += kKingSteps[d][0], r += kKingSteps[d][1]) {
            const int v = b[c * 5 + r];
            if (v > 0) break;
            found |= consider(from, c * 5 + r, piece);
            if (v < 0) break;
          }
        }
      }
      if (kAny && found) return true;
    }
    return false;
  }

  State s_;
  std::array<int, 8> reps_{};  // from s_: the repetition count of history position i
  // sizeof one square's planes, as a variable: a memcpy or memset of a size known at compile time
  // becomes `rep movs`/`rep stos`, several times slower than the library's vector code at this size.
  std::size_t cell_bytes_ = kPlanes * sizeof(float);
};

const bool registered = register_env_type({
    .name = "GardnerChess",
    .options = {},
    .spec = [](const Config&) { return game_spec(GardnerChess::shape()); },
    .create = make_env<GardnerChess>(),
});

}  // namespace

}  // namespace rlpool::pgx
