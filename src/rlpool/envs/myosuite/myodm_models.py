"""The files MyoDM's tasks (myosuite 2.11.6's ``myodm_v0.TrackEnv``) need besides the wheel's, written once.

myosuite builds an object's model at every make: it replaces ``OBJECT_NAME`` in the template
``envs/myo/assets/hand/myohand_object.xml`` and writes the result next to it (its includes are relative), then
loads it and deletes it (``TrackEnv.__init__``). Its tracked motions are ``.npz`` files
(``envs/myo/myodm/data``: ``time``, ``robot``, ``object``, ``robot_init``, ``object_init``, all float64). rlpool's
C++ env writes nothing at run time and reads ``.npy`` files, so both are made here, from the unpacked wheel:
``write_object_models`` writes the 50 models (``myohand_object_<object>.xml``) next to the template and
``write_reference_arrays`` each motion's arrays as ``data/<motion>/<key>.npy`` (and the object's starting
Euler angles, as numpy computes them); ``write_all`` does both on the
folder that holds ``myosuite/`` (an unpack step). ``OBJECTS``, ``TRACKS`` and ``IDS`` are myosuite's
(``envs/myo/myodm/__init__.py``); the C++ env (``myodm.cc``) registers the same ids.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

TEMPLATE = Path("envs/myo/assets/hand/myohand_object.xml")
"""The model template, relative to the wheel's ``myosuite/`` folder."""
DATA = Path("envs/myo/myodm/data")
"""The reference motions' folder, relative to the wheel's ``myosuite/`` folder."""
KEYS = ("time", "robot", "object", "robot_init", "object_init")
"""The arrays of a motion's ``.npz`` that are written (the registered motions have exactly these)."""
EULER = "object_init_euler"
"""The array written besides them: ``object_init_euler``."""

OBJECTS: tuple[str, ...] = (
    "airplane", "alarmclock", "apple", "banana", "binoculars", "bowl", "camera", "coffeemug", "cubelarge",
    "cubemedium", "cubesmall", "cup", "cylinderlarge", "cylindermedium", "cylindersmall", "duck", "elephant",
    "eyeglasses", "flashlight", "flute", "gamecontroller", "hammer", "hand", "headphones", "knife", "lightbulb",
    "mouse", "mug", "phone", "piggybank", "pyramidlarge", "pyramidmedium", "pyramidsmall", "scissors",
    "spherelarge", "spheremedium", "spheresmall", "stamp", "stanfordbunny", "stapler", "teapot", "toothbrush",
    "toothpaste", "toruslarge", "torusmedium", "torussmall", "train", "watch", "waterbottle", "wineglass",
)
"""myodm's ``OBJECTS``: each has a ``MyoHand<Object>Fixed-v0`` and a ``MyoHand<Object>Random-v0`` id."""

TRACKS: tuple[tuple[str, str, str], ...] = (
    ("MyoHandAirplaneFly-v0", "airplane", "MyoHand_airplane_fly1"),
    ("MyoHandAirplaneLift-v0", "airplane", "MyoHand_airplane_lift"),
    ("MyoHandAirplanePass-v0", "airplane", "MyoHand_airplane_pass1"),
    ("MyoHandAlarmclockLift-v0", "alarmclock", "MyoHand_alarmclock_lift"),
    ("MyoHandAlarmclockSee-v0", "alarmclock", "MyoHand_alarmclock_see1"),
    ("MyoHandAppleLift-v0", "apple", "MyoHand_apple_lift"),
    ("MyoHandApplePass-v0", "apple", "MyoHand_apple_pass1"),
    ("MyoHandBananaPass-v0", "banana", "MyoHand_banana_pass1"),
    ("MyoHandCupDrink-v0", "cup", "MyoHand_cup_drink1"),
    ("MyoHandCupPass-v0", "cup", "MyoHand_cup_pass1"),
    ("MyoHandCupPour-v0", "cup", "MyoHand_cup_pour1"),
    ("MyoHandDuckInspect-v0", "duck", "MyoHand_duck_inspect1"),
    ("MyoHandDuckLift-v0", "duck", "MyoHand_duck_lift"),
    ("MyoHandElephantLift-v0", "elephant", "MyoHand_elephant_lift"),
    ("MyoHandElephantPass-v0", "elephant", "MyoHand_elephant_pass1"),
    ("MyoHandFlashlightLift-v0", "flashlight", "MyoHand_flashlight_lift"),
    ("MyoHandFlashlight1On-v0", "flashlight", "MyoHand_flashlight_on1"),
    ("MyoHandFlashlight2On-v0", "flashlight", "MyoHand_flashlight_on2"),
    ("MyoHandHammerUse-v0", "hammer", "MyoHand_hammer_use1"),
    ("MyoHandMouseLift-v0", "mouse", "MyoHand_mouse_lift"),
    ("MyoHandMugDrink3-v0", "mug", "MyoHand_mug_drink3"),
    ("MyoHandScissorsUse-v0", "scissors", "MyoHand_scissors_use1"),
    ("MyoHandSpheremediumLift-v0", "spheremedium", "MyoHand_spheremedium_lift"),
    ("MyoHandStampStamp-v0", "stamp", "MyoHand_stamp_stamp1"),
    ("MyoHandStanfordbunnyInspect-v0", "stanfordbunny", "MyoHand_stanfordbunny_inspect1"),
    ("MyoHandStaplerLift-v0", "stapler", "MyoHand_stapler_lift"),
    ("MyoHandToothpasteLift-v0", "toothpaste", "MyoHand_toothpaste_lift"),
    ("MyoHandToruslargeInspect-v0", "toruslarge", "MyoHand_toruslarge_inspect1"),
    ("MyoHandTrainPlay-v0", "train", "MyoHand_train_play1"),
    ("MyoHandWatchLift-v0", "watch", "MyoHand_watch_lift"),
    ("MyoHandWaterbottleShake-v0", "waterbottle", "MyoHand_waterbottle_shake1"),
    ("MyoHandWineglassDrink2-v0", "wineglass", "MyoHand_wineglass_drink2"),
    ("MyoHandWineglassLift-v0", "wineglass", "MyoHand_wineglass_lift"),
    ("MyoHandStampLift-v0", "stamp", "MyoHand_stamp_lift"),
    ("MyoHandStaplerStaple1-v0", "stapler", "MyoHand_stapler_staple1"),
    ("MyoHandStaplerStaple2-v0", "stapler", "MyoHand_stapler_staple2"),
    ("MyoHandTeapotPour2-v0", "teapot", "MyoHand_teapot_pour2"),
    ("MyoHandToothbrushBrush1-v0", "toothbrush", "MyoHand_toothbrush_brush1"),
    ("MyoHandBowlDrink2-v0", "bowl", "MyoHand_bowl_drink2"),
    ("MyoHandBowlPass-v0", "bowl", "MyoHand_bowl_pass1"),
    ("MyoHandToothpasteSqueeze1-v0", "toothpaste", "MyoHand_toothpaste_squeeze1"),
    ("MyoHandToruslargeLift-v0", "toruslarge", "MyoHand_toruslarge_lift"),
    ("MyoHandTorusmediumLift-v0", "torusmedium", "MyoHand_torusmedium_lift"),
    ("MyoHandCubesmallPass-v0", "cubesmall", "MyoHand_cubesmall_pass1"),
    ("MyoHandTorussmallLift-v0", "torussmall", "MyoHand_torussmall_lift"),
    ("MyoHandMugLift-v0", "mug", "MyoHand_mug_lift"),
    ("MyoHandTorussmallPass-v0", "torussmall", "MyoHand_torussmall_pass1"),
    ("MyoHandPhoneLift-v0", "phone", "MyoHand_phone_lift"),
    ("MyoHandCylindermediumLift-v0", "cylindermedium", "MyoHand_cylindermedium_lift"),
    ("MyoHandWatchPass-v0", "watch", "MyoHand_watch_pass1"),
    ("MyoHandCylindersmallInspect-v0", "cylindersmall", "MyoHand_cylindersmall_inspect1"),
    ("MyoHandCylindersmallPass-v0", "cylindersmall", "MyoHand_cylindersmall_pass1"),
    ("MyoHandPyramidsmallInspect-v0", "pyramidsmall", "MyoHand_pyramidsmall_inspect1"),
    ("MyoHandWineglassToast1-v0", "wineglass", "MyoHand_wineglass_toast1"),
    ("MyoHandSpheresmallInspect-v0", "spheresmall", "MyoHand_spheresmall_inspect1"),
    ("MyoHandSpheresmallLift-v0", "spheresmall", "MyoHand_spheresmall_lift"),
    ("MyoHandSpheresmallPass-v0", "spheresmall", "MyoHand_spheresmall_pass1"),
    ("MyoHandAlarmclockPass-v0", "alarmclock", "MyoHand_alarmclock_pass1"),
    ("MyoHandBinocularsPass-v0", "binoculars", "MyoHand_binoculars_pass1"),
    ("MyoHandDuckPass-v0", "duck", "MyoHand_duck_pass1"),
    ("MyoHandEyeglassesPass-v0", "eyeglasses", "MyoHand_eyeglasses_pass1"),
    ("MyoHandFlashlightPass-v0", "flashlight", "MyoHand_flashlight_pass1"),
    ("MyoHandFlutePass-v0", "flute", "MyoHand_flute_pass1"),
    ("MyoHandHammerPass-v0", "hammer", "MyoHand_hammer_pass1"),
    ("MyoHandHandInspect-v0", "hand", "MyoHand_hand_inspect1"),
    ("MyoHandHeadphonesPass-v0", "headphones", "MyoHand_headphones_pass1"),
    ("MyoHandKnifeChop-v0", "knife", "MyoHand_knife_chop1"),
    ("MyoHandLightbulbPass-v0", "lightbulb", "MyoHand_lightbulb_pass1"),
    ("MyoHandMouseUse-v0", "mouse", "MyoHand_mouse_use1"),
    ("MyoHandPiggybankUse-v0", "piggybank", "MyoHand_piggybank_use1"),
    ("MyoHandToothbrushLift-v0", "toothbrush", "MyoHand_toothbrush_lift"),
    ("MyoHandWaterbottleLift-v0", "waterbottle", "MyoHand_waterbottle_lift"),
    ("MyoHandWineglassPass-v0", "wineglass", "MyoHand_wineglass_pass1"),
    ("MyoHandStanfordbunnyPass-v0", "stanfordbunny", "MyoHand_stanfordbunny_pass1"),
    ("MyoHandCameraPass-v0", "camera", "MyoHand_camera_pass1"),
    ("MyoHandCubelargePass-v0", "cubelarge", "MyoHand_cubelarge_pass1"),
    ("MyoHandCubemediumLInspect-v0", "cubemedium", "MyoHand_cubemedium_inspect1"),
    ("MyoHandMousePass-v0", "mouse", "MyoHand_mouse_pass1"),
    ("MyoHandCubesmallLift-v0", "cubesmall", "MyoHand_cubesmall_lift"),
    ("MyoHandTorusmediumPass-v0", "torusmedium", "MyoHand_torusmedium_pass1"),
    ("MyoHandMugPass-v0", "mug", "MyoHand_mug_pass1"),
    ("MyoHandPiggybankPass-v0", "wineglass", "MyoHand_piggybank_pass1"),
    ("MyoHandCylindermediumPass-v0", "cylindermedium", "MyoHand_cylindermedium_pass1"),
    ("MyoHandPyramidlargePass-v0", "pyramidlarge", "MyoHand_pyramidlarge_pass1"),
    ("MyoHandWaterbottlePass-v0", "waterbottle", "MyoHand_waterbottle_pass1"),
    ("MyoHandPyramidmediumPass-v0", "pyramidmedium", "MyoHand_pyramidmedium_pass1"),
    ("MyoHandSpherelargePass-v0", "spherelarge", "MyoHand_spherelarge_pass1"),
    ("MyoHandSpheremediumInspect-v0", "spheremedium", "MyoHand_spheremedium_inspect1"),
    ("MyoHandCylinderlargeInspect-v0", "cylinderlarge", "MyoHand_cylinderlarge_inspect1"),
    ("MyoHandGamecontrollerPass-v0", "gamecontroller", "MyoHand_gamecontroller_pass1"),
)
"""The ids that track a recorded motion: (id, object, motion file without ``.npz``), in myodm's order.
``MyoHandPiggybankPass-v0`` moves the wineglass along the piggybank's motion, as myosuite registers it."""

TRACK_STEPS = 75
"""The tracking ids' ``max_episode_steps``."""
TARGET_STEPS = 50
"""The Fixed and Random ids' ``max_episode_steps``."""

IDS: tuple[tuple[str, int], ...] = tuple((task, TRACK_STEPS) for task, _, _ in TRACKS) + tuple(
    (f"MyoHand{name.title()}{kind}-v0", TARGET_STEPS) for name in OBJECTS for kind in ("Fixed", "Random")
)
"""Every MyoDM id with its ``max_episode_steps``: the 90 tracking ids, then each object's Fixed and Random."""


def model_name(obj: str) -> str:
    """The file name of ``obj``'s model, written next to the template."""
    return f"myohand_object_{obj}.xml"


def write_object_models(myosuite_folder: Path) -> None:
    """Write the 50 objects' models next to the template in ``myosuite_folder`` (the wheel's ``myosuite/``).

    Each is the template's text with every ``OBJECT_NAME`` replaced by the object's name, as
    ``TrackEnv.__init__`` makes it.
    """
    template = Path(myosuite_folder) / TEMPLATE
    text = template.read_bytes()
    if b"OBJECT_NAME" not in text:
        raise ValueError(f"{template}: the MyoDM model template names no OBJECT_NAME")
    for obj in OBJECTS:
        (template.parent / model_name(obj)).write_bytes(text.replace(b"OBJECT_NAME", obj.encode()))


def write_reference_arrays(myosuite_folder: Path) -> None:
    """Write each tracked motion's arrays as ``.npy`` files: ``data/<motion>/<key>.npy``, float64, C order.

    The motions are the ``TRACKS``' ``.npz`` files of ``myosuite_folder`` (the wheel's ``myosuite/``); each must
    hold ``KEYS`` as float64 arrays. ``object_init_euler.npy`` is written with them (``object_init_euler``).
    """
    data = Path(myosuite_folder) / DATA
    for motion in sorted({m for _, _, m in TRACKS}):
        source = data / f"{motion}.npz"
        try:
            with np.load(source, allow_pickle=False) as npz:
                arrays = {key: npz[key] for key in KEYS}
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
            raise ValueError(f"{source}: not a MyoDM reference motion ({error})") from error
        for key, array in arrays.items():
            if array.dtype != np.float64:
                raise ValueError(f"{source}: {key} has dtype {array.dtype}, not float64")
        if arrays["object_init"].shape != (7,):
            raise ValueError(f"{source}: object_init has shape {arrays['object_init'].shape}, not (7,)")
        arrays[EULER] = object_init_euler(arrays["object_init"][3:])
        folder = data / motion
        folder.mkdir(exist_ok=True)
        for key, array in arrays.items():
            np.save(folder / f"{key}.npy", np.ascontiguousarray(array, dtype="<f8"), allow_pickle=False)


def object_init_euler(quat: np.ndarray) -> np.ndarray:
    """The Euler angles TrackEnv starts the object at: quat_math.quat2euler(object_init[3:]), with numpy.

    Written with the arrays because numpy's float64 arctan2 (a SIMD kernel on CPUs with AVX512F) and the C
    library's atan2 differ in the last bit for some angles, and the start state feeds every later step.
    """
    w, x, y, z = (np.float64(v) for v in quat)
    nq = np.sum(np.asarray(quat, dtype=np.float64) * np.asarray(quat, dtype=np.float64))
    s = 2.0 / nq
    xs, ys, zs = x * s, y * s, z * s
    w_x, w_y, w_z = w * xs, w * ys, w * zs
    x_x, x_y, x_z = x * xs, x * ys, x * zs
    y_y, y_z, z_z = y * ys, y * zs, z * zs
    m = np.array([[1.0 - (y_y + z_z), x_y - w_z, x_z + w_y],
                  [x_y + w_z, 1.0 - (x_x + z_z), y_z - w_x],
                  [x_z - w_y, y_z + w_x, 1.0 - (x_x + y_y)]])
    if not nq > np.finfo(np.float64).eps:
        m = np.eye(3)
    cy = np.sqrt(m[2, 2] * m[2, 2] + m[1, 2] * m[1, 2])
    upright = cy > np.finfo(np.float64).eps * 4.0
    return np.array([
        -np.arctan2(m[1, 2], m[2, 2]) if upright else 0.0,
        -np.arctan2(-m[0, 2], cy),
        -np.arctan2(m[0, 1], m[0, 0]) if upright else -np.arctan2(-m[1, 0], m[1, 1]),
    ])


def write_all(unpacked: Path) -> None:
    """``write_object_models`` and ``write_reference_arrays`` on ``unpacked / "myosuite"`` (an unpack step)."""
    write_object_models(Path(unpacked) / "myosuite")
    write_reference_arrays(Path(unpacked) / "myosuite")
