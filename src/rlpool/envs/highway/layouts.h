// Road layouts of every highway-env scenario: each `_make_road` / `_create_road` as a plain function that
// builds the RoadNetwork from the config values it reads and returns it, plus (as plain data) whatever else
// the scenario takes from its road-making code (obstacle positions, the lanes the env keeps). The scenario
// code builds the Road (or RegulatedRoad for the intersection) from the network and adds the obstacles.
//
// Follows highway_env/envs/{highway,merge,roundabout,intersection,two_way,u_turn,exit,parking,racetrack,
// lane_keeping}_env.py (highway-env 1.12.1); implemented in layouts_basic.cc, layouts_roundabout.cc,
// layouts_racetrack.cc.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "envs/highway/geometry.h"
#include "envs/highway/lane.h"
#include "envs/highway/road_network.h"

namespace rlpool::highway {

// HighwayEnv / HighwayEnvFast._create_road: straight_road_network(lanes_count, speed_limit=30).
RoadNetwork make_highway_road(int lanes_count);

struct MergeRoad {
  RoadNetwork network;
  Vec2 obstacle{0.0, 0.0};    // Obstacle(road, obstacle) appended to road.objects
  double end_position = 0.0;  // MergeGenericEnv.end_position (MergeEnv has none: 0)
};
// MergeEnv._make_road (reads no config value).
MergeRoad make_merge_road();
// MergeGenericEnv._make_road (config lanes_count, before_merge_length, converge_merge_length,
// parallel_merge_length, after_merge_length). Throws std::invalid_argument where Python's asserts fail
// (a segment <= 0, after < 90).
MergeRoad make_merge_generic_road(int lanes_count, double before_merge_length, double converge_merge_length,
                                  double parallel_merge_length, double after_merge_length);

// RoundaboutEnv._make_road (reads no config value).
RoadNetwork make_roundabout_road();
// RoundaboutGenericEnv._make_road (config roundabout_radius, roundabout_lanes >= 1).
RoadNetwork make_roundabout_generic_road(double roundabout_radius, int roundabout_lanes);

// IntersectionEnv._make_road (reads no config value; the env wraps it in a RegulatedRoad).
RoadNetwork make_intersection_road();

// TwoWayEnv._make_road(length=800).
RoadNetwork make_two_way_road(double length = 800);

// UTurnEnv._make_road(length=128).
RoadNetwork make_u_turn_road(double length = 128);

// ExitEnv._create_road(road_length=1000, exit_position=400, exit_length=100) with config lanes_count.
RoadNetwork make_exit_road(int lanes_count, double road_length = 1000, double exit_position = 400,
                           double exit_length = 100);

// ParkingEnv._create_road(spots=14) (the walls belong to _create_vehicles).
RoadNetwork make_parking_road(int spots = 14);

struct LaneKeepingRoad {
  RoadNetwork network;
  std::shared_ptr<AbstractLane> lane;               // LaneKeepingEnv.lane (the straight lane "c"->"d")
  std::vector<std::shared_ptr<AbstractLane>> lanes; // LaneKeepingEnv.lanes after the pop: [sine lane "a"->"b"]
};
// LaneKeepingEnv._make_road (reads no config value).
LaneKeepingRoad make_lane_keeping_road();

struct RacetrackRoad {
  RoadNetwork network;
  std::shared_ptr<AbstractLane> lane;  // RacetrackEnv.lane (the first lane, "a"->"b" id 0)
  std::vector<Vec2> obstacles;         // Obstacle(road, p) appended to road.objects in this order
};
// RacetrackEnv._make_road (fixed speed limits, reads no config value).
RacetrackRoad make_racetrack_road();
// RacetrackEnvLarge._make_road (config speed_limit; None -> nullopt).
RacetrackRoad make_racetrack_large_road(std::optional<double> speed_limit);
// RacetrackEnvOval._make_road with config length, no_lanes, block_lane, force_decision. Python draws from an
// unseeded np.random.default_rng() when config length == 0 (length = rng.integers(100, high=200)) and/or
// no_lanes == 0 (no_lanes = rng.integers(2, high=7)), length first: the caller resolves those draws and
// passes the values (both must be > 0 here; std::invalid_argument otherwise).
RacetrackRoad make_racetrack_oval_road(double length, int no_lanes, bool block_lane, bool force_decision);

}  // namespace rlpool::highway
