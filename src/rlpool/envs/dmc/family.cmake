# DeepMind Control Suite envs: they use the MuJoCo family's library loader
# (mujoco/mujoco_env.h), so the envs folder is on their include path.
target_include_directories(_rlpool_core PRIVATE "${CMAKE_CURRENT_LIST_DIR}/..")
