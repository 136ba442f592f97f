"""PPO on Atari with the environment stepped inside the jitted rollout (CleanRL's ppo_atari_envpool_xla_jax shape).

    python examples/ppo_atari_xla_jax.py --env-id Breakout-v5 --total-timesteps 10000000

Plain jax (no flax/optax): the Nature-DQN network, Adam and PPO's loss are written out here. The
rollout is one ``jax.lax.scan`` whose body calls the pool's XLA ``step`` (``envs.xla()``), so a whole
update (rollout, GAE, epochs of minibatch updates) is one jitted call. ``import rlpool.compat.envpool
as envpool`` is the only rlpool-specific line; ``--reference`` runs the same code on EnvPool 1.2.5.
Hyperparameters are CleanRL's for Atari (8 envs, 128 steps, 4 minibatches, 4 epochs, lr 2.5e-4
annealed, clip 0.1, ent 0.01, gamma 0.99, lambda 0.95). Episode statistics as CleanRL's: the game's
unclipped score (``info["reward"]``) summed until the real game over (``info["terminated"]``).
Needs jax: ``pip install 'jax>=0.10'`` (rlpool's jax extra). Runs on the CPU (rlpool's XLA calls are CPU custom calls).
"""

from __future__ import annotations

import argparse
import importlib
import time
from dataclasses import dataclass, fields
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_platforms", "cpu")


@dataclass
class Args:
    env_id: str = "Breakout-v5"
    seed: int = 1
    num_envs: int = 8
    num_steps: int = 128
    total_timesteps: int = 10_000_000
    learning_rate: float = 2.5e-4
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.1
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    reference: bool = False  # run on EnvPool itself
    log_every: int = 10  # updates between progress lines (0: quiet)


# The network: conv(32, 8, 4) conv(64, 4, 2) conv(64, 3, 1) dense(512), then policy and value heads.
_CONVS = ((4, 32, 8, 4), (32, 64, 4, 2), (64, 64, 3, 1))


def init_params(key: jax.Array, n_actions: int) -> dict[str, Any]:
    keys = jax.random.split(key, 6)
    ortho = jax.nn.initializers.orthogonal
    params: dict[str, Any] = {}
    for i, (cin, cout, k, _) in enumerate(_CONVS):
        w = ortho(np.sqrt(2), column_axis=0)(keys[i], (cout, cin, k, k))  # OIHW
        params[f"conv{i}"] = (w, jnp.zeros(cout))
    params["dense"] = (ortho(np.sqrt(2))(keys[3], (64 * 7 * 7, 512)), jnp.zeros(512))
    params["actor"] = (ortho(0.01)(keys[4], (512, n_actions)), jnp.zeros(n_actions))
    params["critic"] = (ortho(1.0)(keys[5], (512, 1)), jnp.zeros(1))
    return params


def forward(params: dict[str, Any], obs: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Logits and values for a batch of uint8 (N, 4, 84, 84) frame stacks."""
    x = obs.astype(jnp.float32) / 255.0
    for i, (_, _, _, stride) in enumerate(_CONVS):
        w, b = params[f"conv{i}"]
        x = jax.lax.conv_general_dilated(x, w, (stride, stride), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))
        x = jax.nn.relu(x + b[None, :, None, None])
    x = x.reshape(x.shape[0], -1)
    w, b = params["dense"]
    x = jax.nn.relu(x @ w + b)
    logits = x @ params["actor"][0] + params["actor"][1]
    value = (x @ params["critic"][0] + params["critic"][1])[:, 0]
    return logits, value


def adam_update(grads: Any, state: dict[str, Any], params: Any, lr: jax.Array, max_norm: float) -> tuple[Any, Any]:
    """Global-norm clipping, then Adam (eps 1e-5, as CleanRL)."""
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree_util.tree_leaves(grads)))
    grads = jax.tree_util.tree_map(lambda g: g * jnp.minimum(1.0, max_norm / (norm + 1e-6)), grads)
    t = state["t"] + 1
    m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, state["m"], grads)
    v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, state["v"], grads)
    mhat_scale, vhat_scale = 1.0 / (1 - 0.9**t), 1.0 / (1 - 0.999**t)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - lr * (m * mhat_scale) / (jnp.sqrt(v * vhat_scale) + 1e-5), params, m, v
    )
    return params, {"t": t, "m": m, "v": v}


def make_envs(args: Args) -> Any:
    envpool = importlib.import_module("envpool" if args.reference else "rlpool.compat.envpool")
    return envpool.make(
        args.env_id, env_type="gymnasium", num_envs=args.num_envs, seed=args.seed,
        episodic_life=True, reward_clip=True,
    )  # fmt: skip


def train(args: Args) -> tuple[dict[str, Any], dict[str, Any]]:
    envs = make_envs(args)
    n_actions = envs.action_space.n
    batch = args.num_envs * args.num_steps
    minibatch = batch // args.num_minibatches
    num_updates = max(1, args.total_timesteps // batch)
    handle, _, _, step_env = envs.xla()
    obs, _ = envs.reset()

    key = jax.random.PRNGKey(args.seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key, n_actions)
    opt = {"t": jnp.zeros((), jnp.int32), "m": jax.tree_util.tree_map(jnp.zeros_like, params),
           "v": jax.tree_util.tree_map(jnp.zeros_like, params)}  # fmt: skip
    zeros = jnp.zeros(args.num_envs, jnp.float32)
    stats = {"episode_return": zeros, "returned": zeros, "episodes": jnp.zeros((), jnp.int32)}

    def rollout_step(carry: tuple, _: Any) -> tuple[tuple, tuple]:
        params, handle, obs, done, key, stats = carry
        key, sub = jax.random.split(key)
        logits, value = forward(params, obs)
        action = jax.random.categorical(sub, logits)
        logp = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
        handle, (next_obs, reward, terminated, truncated, info) = step_env(handle, action.astype(jnp.int32))
        # CleanRL's statistics: the unclipped score until the real game over.
        ep = stats["episode_return"] + info["reward"]
        over = info["terminated"].astype(bool) | truncated
        stats = {
            "episode_return": jnp.where(over, 0.0, ep),
            "returned": jnp.where(over, ep, stats["returned"]),
            "episodes": stats["episodes"] + over.sum(),
        }
        transition = (obs, action, logp, value, reward, done)
        return (params, handle, next_obs, terminated | truncated, key, stats), transition

    def loss_fn(params: Any, mb: tuple) -> tuple[jax.Array, jax.Array]:
        obs, action, old_logp, adv, ret = mb
        logits, value = forward(params, obs)
        logp_all = jax.nn.log_softmax(logits)
        logp = logp_all[jnp.arange(action.shape[0]), action]
        ratio = jnp.exp(logp - old_logp)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        pg = jnp.maximum(-adv * ratio, -adv * jnp.clip(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
        v_loss = 0.5 * ((value - ret) ** 2).mean()
        entropy = -(jnp.exp(logp_all) * logp_all).sum(-1).mean()
        return pg - args.ent_coef * entropy + args.vf_coef * v_loss, v_loss

    @jax.jit
    def update(params, opt, handle, obs, done, key, stats, lr):
        carry, traj = jax.lax.scan(rollout_step, (params, handle, obs, done, key, stats), length=args.num_steps)
        params, handle, obs, done, key, stats = carry
        b_obs, b_action, b_logp, b_value, b_reward, b_done = traj
        _, next_value = forward(params, obs)

        def gae(carry, t):
            last, next_v, next_d = carry
            nonterminal = 1.0 - next_d
            delta = b_reward[t] + args.gamma * next_v * nonterminal - b_value[t]
            last = delta + args.gamma * args.gae_lambda * nonterminal * last
            return (last, b_value[t], b_done[t].astype(jnp.float32)), last

        _, adv = jax.lax.scan(gae, (jnp.zeros_like(next_value), next_value, done.astype(jnp.float32)),
                              jnp.arange(args.num_steps - 1, -1, -1))  # fmt: skip
        adv = adv[::-1]
        ret = adv + b_value
        flat = jax.tree_util.tree_map(lambda x: x.reshape(batch, *x.shape[2:]), (b_obs, b_action, b_logp, adv, ret))
        for _ in range(args.update_epochs):
            key, sub = jax.random.split(key)
            perm = jax.random.permutation(sub, batch)
            for i in range(args.num_minibatches):
                idx = perm[i * minibatch : (i + 1) * minibatch]
                mb = jax.tree_util.tree_map(lambda x, idx=idx: x[idx], flat)
                grads, _ = jax.grad(loss_fn, has_aux=True)(params, mb)
                params, opt = adam_update(grads, opt, params, lr, args.max_grad_norm)
        return params, opt, handle, obs, done, key, stats

    done = jnp.zeros(args.num_envs, bool)
    start = time.time()
    history: list[tuple[int, float]] = []
    obs = jnp.asarray(obs)
    for u in range(num_updates):
        frac = 1.0 - u / num_updates if args.anneal_lr else 1.0
        params, opt, handle, obs, done, key, stats = update(
            params, opt, handle, obs, done, key, stats, jnp.float32(args.learning_rate * frac)
        )
        if int(stats["episodes"]) >= args.num_envs:  # each env has finished a game at least once
            history.append(((u + 1) * batch, float(stats["returned"].mean())))
        if args.log_every and (u + 1) % args.log_every == 0:
            ret = history[-1][1] if history else float("nan")
            sps = (u + 1) * batch / (time.time() - start)
            print(f"update {u + 1}/{num_updates}  steps {(u + 1) * batch}  return {ret:.2f}  {sps:.0f} steps/s")
    envs.close()
    seconds = time.time() - start
    return params, {"timesteps": num_updates * batch, "seconds": seconds, "history": history,
                    "steps_per_second": num_updates * batch / seconds}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in fields(Args):
        name = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            parser.add_argument(name, action=argparse.BooleanOptionalAction, default=f.default)
        else:
            parser.add_argument(name, type=type(f.default), default=f.default)
    args = Args(**vars(parser.parse_args()))
    _, stats = train(args)
    print(f"{stats['timesteps']} steps in {stats['seconds']:.0f} s ({stats['steps_per_second']:.0f} steps/s)")


if __name__ == "__main__":
    main()
