"""The MyoSuite models that myosuite 2.11.6 builds by MjSpec edits when an env is made, written once as XML.

myosuite edits three models at load time: the arm of the myoArmReach ids (``edit_fn_arm_reaching`` in
myosuite/envs/myo/myoedits/__init__.py), the table-tennis player (``TableTennisEnvV0._preprocess_spec`` in
myosuite/envs/myo/myochallenge/tabletennis_v0.py, with the helpers of myosuite/utils/spec_processing.py) and
none for Bimanual (its XML is loaded as it is). The C++ env reads no specs, so these steps, run on the
unpacked wheel folder (the one holding ``myosuite/``), make the same edits with rlpool's own ``mujoco`` (3.17)
and write each edited model next to its original: the arm as XML (its relative mesh paths still hold), the
table-tennis player compiled (``.mjb``).

The edits reproduce the models myosuite gets on its pinned MuJoCo 3.3.0, which differ from what the same
calls give on 3.17 in two ways that are undone here: 3.3.0's ``MjSpec.detach_body`` also drops the actuators
APL and OP of the arm (32 actuators, not 34), and 3.17's ``MjSpec.to_xml`` writes each tendon's computed
``springlength`` rounded to 6 digits where 3.3.0 leaves it to be computed at load (at full precision).
"""

from __future__ import annotations

import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import mujoco

ARM_MODEL = "myosuite/simhive/myo_sim/arm/myoarm.xml"
"""The arm model the myoArmReach ids edit (relative to the unpacked folder)."""
ARM_REACH_MODEL = "myosuite/simhive/myo_sim/arm/myoarm_reach_edited.xml"
"""Where the edited arm is written; the C++ ids load it."""
TABLE_TENNIS_MODEL = "myosuite/envs/myo/assets/arm/myoarm_tabletennis.xml"
"""The table-tennis model the TableTennis ids edit."""
TABLE_TENNIS_EDITED_MODEL = "myosuite/envs/myo/assets/arm/myoarm_tabletennis_edited.mjb"
"""Where the edited table-tennis model is written, compiled (MuJoCo's binary model, of the MuJoCo that wrote it:
the unpacked folder's MARKER names that version, and another MuJoCo unpacks again)."""

_DIGIT_ROOTS = ("firstmc", "secondmc", "thirdmc", "fourthmc", "fifthmc")
"""The metacarpals whose digit chains edit_fn_arm_reaching replaces by rigid, mesh-only bodies."""
_ARM_DROPPED_ACTUATORS = ("APL", "OP")
"""Actuators MuJoCo 3.3.0's detach_body of the digits removes besides the digits' own."""


def _write_xml(spec: mujoco.MjSpec, path: Path, unset_springlength: set[str]) -> None:
    """Compile ``spec`` and write its XML to ``path``.

    Tendons named in ``unset_springlength`` get no ``springlength``: MuJoCo 3.17's writer puts each tendon's
    compiled spring length into the XML, where 3.3.0 leaves it to be computed at load. A default class tree
    that an attached copy of the spec brought (an unnamed ``<default>`` inside the main one, which MuJoCo
    cannot load) is dropped: its classes are the main tree's, same names and values.
    """
    spec.compile()
    text = spec.to_xml()
    root = ET.fromstring(text)
    for section in root.iter("tendon"):
        for tendon in section:
            if tendon.get("name") in unset_springlength:
                tendon.attrib.pop("springlength", None)
    for main in root.findall("default"):
        for nested in list(main):
            if nested.tag == "default" and nested.get("class") is None:
                main.remove(nested)
    ET.indent(root)
    path.write_text(ET.tostring(root, encoding="unicode") + "\n")


def _unset_springlength(spec: mujoco.MjSpec) -> set[str]:
    """The tendons whose spring length is computed by the compiler (left unset in the source)."""
    return {t.name for t in spec.tendons if t.springlength[0] == -1 and t.springlength[1] == -1}


def edit_arm_reaching(spec: mujoco.MjSpec) -> None:
    """edit_fn_arm_reaching on MuJoCo 3.3.0: rigid digits, the IFtip site on distph2, the IFtip_target site.

    Each digit below a metacarpal is replaced by a chain of bodies at the same positions holding only their
    mesh geoms (no joints, no wrapping geoms, no sites but IFtip, twice its size); the actuators APL and OP
    go too, as 3.3.0's ``detach_body`` drops them.
    """
    chains: dict[str, list[tuple[str, list[float], list[str]]]] = {}
    for root in _DIGIT_ROOTS:
        chain = []
        child = spec.body(root).first_body()
        while child is not None:
            meshes = [g.name for g in child.geoms if g.type == mujoco.mjtGeom.mjGEOM_MESH]
            chain.append((child.name, list(child.pos), meshes))
            child = child.first_body()
        chains[root] = chain
    tip = spec.site("IFtip")
    tip_size, tip_pos, tip_rgba = list(tip.size), list(tip.pos), list(tip.rgba)

    for root in _DIGIT_ROOTS:
        child = spec.body(root).first_body()
        if child is not None:
            spec.delete(child)
    for name in _ARM_DROPPED_ACTUATORS:
        actuator = spec.actuator(name)
        if actuator is None:
            raise ValueError(f"{ARM_MODEL}: no actuator {name!r} to drop")
        spec.delete(actuator)

    for root in _DIGIT_ROOTS:
        parent = spec.body(root)
        for body_name, pos, meshes in chains[root]:
            body = parent.add_body(name=body_name, pos=pos)
            for mesh in meshes:
                body.add_geom(meshname=mesh, name=body_name, type=mujoco.mjtGeom.mjGEOM_MESH)
            if body_name == "distph2":
                body.add_site(name="IFtip", size=[2 * s for s in tip_size], pos=tip_pos, rgba=tip_rgba)
            parent = body
    spec.worldbody.add_site(
        name="IFtip_target",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        size=[0.02, 0.02, 0.02],
        pos=[-0.2, -0.2, 1.2],
        rgba=[0.0, 0.0, 1.0, 0.3],
    )


def write_arm_reaching(folder: Path) -> None:
    """Write ``ARM_REACH_MODEL`` in ``folder`` (the unpacked wheel folder): the myoArmReach ids' model."""
    source = folder / ARM_MODEL
    try:
        spec = mujoco.MjSpec.from_file(str(source))
        unset = _unset_springlength(spec)
        edit_arm_reaching(spec)
        _write_xml(spec, folder / ARM_REACH_MODEL, unset)
    except (ValueError, OSError) as e:
        raise ValueError(f"could not write the myoArmReach model from {source}: {e}") from e


def _immobilize(
    spec: mujoco.MjSpec, owner: mujoco.MjSpec, model: mujoco.MjModel, parent: mujoco.MjsBody, remove_eqs: bool = False
) -> list[int]:
    """recursive_immobilize: delete the sites and joints under ``parent`` (in ``owner``); their qpos addresses.

    With ``remove_eqs`` the joint equalities of ``spec`` that name a deleted joint go too.
    """
    removed: list[int] = []
    for site in parent.sites:
        owner.delete(site)
    for joint in parent.joints:
        removed.extend(int(a) for a in model.joint(joint.name).qposadr)
        if remove_eqs:
            for eq in spec.equalities:
                if eq.type == mujoco.mjtEq.mjEQ_JOINT and joint.name in (eq.name1, eq.name2):
                    spec.delete(eq)
        owner.delete(joint)
    for child in parent.bodies:
        removed.extend(_immobilize(spec, owner, model, child, remove_eqs))
    return removed


def _remove_contacts(parent: mujoco.MjsBody, keep_below: str | None = None) -> None:
    """recursive_remove_contacts: no contacts under ``parent``, but below a body named ``*keep_below*``."""
    if keep_below is not None and keep_below in parent.name:
        return
    for geom in parent.geoms:
        geom.contype = 0
        geom.conaffinity = 0
    for child in parent.bodies:
        _remove_contacts(child, keep_below)


def _mirror(meshes: set[str], owner: mujoco.MjSpec, parent: mujoco.MjsBody) -> None:
    """recursive_mirror: reflect ``parent``'s subtree in y, keeping only mesh geoms, renamed ``*_mirrored``."""
    parent.pos[1] *= -1
    parent.quat[[1, 3]] *= -1
    parent.name += "_mirrored"
    for geom in parent.geoms:
        if geom.type != mujoco.mjtGeom.mjGEOM_MESH:
            owner.delete(geom)
            continue
        geom.pos[1] *= -1
        geom.quat[[1, 3]] *= -1
        geom.name += "_mirrored"
        geom.group = 1
        meshes.add(geom.meshname)
        geom.meshname += "_mirrored"
    for child in parent.bodies:
        if "ping_pong" in child.name:
            owner.delete(child)
            continue
        _mirror(meshes, owner, child)


def edit_table_tennis(spec: mujoco.MjSpec) -> mujoco.MjSpec:
    """TableTennisEnvV0._preprocess_spec with its defaults (remove_body_collisions, add_left_arm).

    Only the ball's and paddle's sensors stay; both legs lose their joints, sites and joint equalities (and the
    keyframes those joints' qpos); the body's geoms stop colliding (but from the radius down); a mirrored copy
    of the right arm, its meshes reflected, without joints, sites, contacts or non-mesh geoms, is attached to
    the torso as the left arm.
    """
    for sensor in spec.sensors:
        if "pingpong" not in sensor.name and "paddle" not in sensor.name:
            spec.delete(sensor)
    model = spec.compile()

    removed = _immobilize(spec, spec, model, spec.body("femur_l"), remove_eqs=True)
    removed.extend(_immobilize(spec, spec, model, spec.body("femur_r"), remove_eqs=True))
    for key in spec.keys:
        key.qpos = [q for i, q in enumerate(key.qpos) if i not in removed]

    _remove_contacts(spec.body("full_body"), keep_below="radius")

    torso = spec.body("torso")
    copy = spec.copy()
    frame = torso.add_frame(quat=[0.5, 0.5, -0.5, 0.5], pos=[0.05, 0.373, -0.04])
    for elements in (
        copy.keys,
        copy.textures,
        copy.materials,
        copy.tendons,
        copy.actuators,
        copy.equalities,
        copy.sensors,
        copy.cameras,
    ):
        for element in elements:
            copy.delete(element)
    _immobilize(spec, copy, model, copy.worldbody)
    _remove_contacts(copy.worldbody)

    meshes: set[str] = set()
    _mirror(meshes, copy, copy.body("clavicle"))
    for mesh in copy.meshes:
        if mesh.name in meshes:
            mesh.name += "_mirrored"
            mesh.scale[1] *= -1
        else:
            copy.delete(mesh)

    frame.attach_body(copy.body("clavicle_mirrored"))
    spec.body("ulna_mirrored").quat = [0.546, 0, 0, -0.838]
    spec.body("humerus_mirrored").quat = [0.924, 0.383, 0, 0]
    return spec


def write_table_tennis(folder: Path) -> None:
    """Write ``TABLE_TENNIS_EDITED_MODEL`` in ``folder`` (the unpacked wheel folder): the TableTennis ids' model.

    myosuite compiles the edited spec without writing it; the compiled model is saved as it is (``mj_saveModel``).
    An XML written from the spec and compiled again differs in the last bits of the mesh frames and inertias
    the writer recomputes, which this model's contacts amplify to 1e-5 within a step.
    """
    source = folder / TABLE_TENNIS_MODEL
    target = folder / TABLE_TENNIS_EDITED_MODEL
    try:
        with warnings.catch_warnings():
            # MuJoCo warns that an attach without a name prefix may not save to XML; the model is saved compiled.
            warnings.filterwarnings("ignore", message="Attaching a spec with an empty prefix")
            model = edit_table_tennis(mujoco.MjSpec.from_file(str(source))).compile()
        mujoco.mj_saveModel(model, str(target), None)
        mujoco.MjModel.from_binary_path(str(target))
    except (ValueError, OSError) as e:
        raise ValueError(f"could not write the TableTennis model from {source}: {e}") from e
