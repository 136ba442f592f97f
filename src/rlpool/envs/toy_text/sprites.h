// The gymnasium images the toy text envs draw (draw::Sprite): their paths in
// the gymnasium package, read at run time from the env's `_images` folder
// (rlpool.images decodes them there at make time).
#pragma once

#include "_core/gfx/draw.h"

namespace rlpool::toy_text::sprites {

inline constexpr draw::Sprite kLakeIce{"envs/toy_text/img/tile_ice.png"};
inline constexpr draw::Sprite kLakeHole{"envs/toy_text/img/tile_hole.png"};
inline constexpr draw::Sprite kLakeCrackA{"envs/toy_text/img/tile_ice_crack_a.png"};
inline constexpr draw::Sprite kLakeCrackB{"envs/toy_text/img/tile_ice_crack_b.png"};
inline constexpr draw::Sprite kLakeAgent{"envs/toy_text/img/agent.png"};
inline constexpr draw::Sprite kLakeFlag{"envs/toy_text/img/goal_flag.png"};
inline constexpr draw::Sprite kLakeLetterS{"envs/toy_text/img/letter_s.png"};
inline constexpr draw::Sprite kLakeLetterG{"envs/toy_text/img/letter_g.png"};
inline constexpr draw::Sprite kCliffGround{"envs/toy_text/img/cliff_walking/tile_ground.png"};
inline constexpr draw::Sprite kCliffLeft{"envs/toy_text/img/cliff_walking/tile_cliff_left.png"};
inline constexpr draw::Sprite kCliffMidA{"envs/toy_text/img/cliff_walking/tile_cliff_mid_a.png"};
inline constexpr draw::Sprite kCliffMidB{"envs/toy_text/img/cliff_walking/tile_cliff_mid_b.png"};
inline constexpr draw::Sprite kCliffRight{"envs/toy_text/img/cliff_walking/tile_cliff_right.png"};
inline constexpr draw::Sprite kCliffAgent{"envs/toy_text/img/cliff_walking/agent.png"};
inline constexpr draw::Sprite kCliffFlag{"envs/toy_text/img/cliff_walking/goal_flag.png"};
inline constexpr draw::Sprite kCliffLetterS{"envs/toy_text/img/cliff_walking/letter_s.png"};
inline constexpr draw::Sprite kCliffLetterG{"envs/toy_text/img/cliff_walking/letter_g.png"};
inline constexpr draw::Sprite kTaxiBackground{"envs/toy_text/img/taxi/background.png"};
inline constexpr draw::Sprite kTaxiHouse{"envs/toy_text/img/taxi/house.png"};
inline constexpr draw::Sprite kTaxiDestination{"envs/toy_text/img/taxi/marker_destination.png"};
inline constexpr draw::Sprite kTaxiPassenger{"envs/toy_text/img/taxi/passenger.png"};
inline constexpr draw::Sprite kTaxiH{"envs/toy_text/img/taxi/taxi_h.png"};
inline constexpr draw::Sprite kTaxiHFull{"envs/toy_text/img/taxi/taxi_h_full.png"};
inline constexpr draw::Sprite kTaxiV{"envs/toy_text/img/taxi/taxi_v.png"};
inline constexpr draw::Sprite kTaxiVFull{"envs/toy_text/img/taxi/taxi_v_full.png"};

}  // namespace rlpool::toy_text::sprites
