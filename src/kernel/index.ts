/** What every engine shares: the seeded generator, the contract, checks, the autopilot and replay. */
export * from './types.ts';
export * from './rng.ts';
export * from './checks.ts';
export * from './autopilot.ts';
export * from './replay.ts';
export * from './two-player.ts';
