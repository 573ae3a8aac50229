import type { AnyEngine } from '../kernel/types.ts';
import { knucklebones } from './knucklebones/engine/index.ts';
import { tellstones } from './tellstones/engine/index.ts';

export { RuleError } from '../kernel/types.ts';
export type { AnyEngine, Engine, Outcome, PlayerId, SetupArgs } from '../kernel/types.ts';
export { knucklebones } from './knucklebones/engine/index.ts';
export type {
  KnucklebonesLogEntry,
  KnucklebonesMove,
  KnucklebonesOptions,
  KnucklebonesState,
  KnucklebonesView,
} from './knucklebones/engine/index.ts';
export { tellstones } from './tellstones/engine/index.ts';
export type {
  TellstonesLogEntry,
  TellstonesMove,
  TellstonesOptions,
  TellstonesState,
  TellstonesView,
} from './tellstones/engine/index.ts';

/** Every game engine, by kind (the kind is also the engine's `id`). */
export const engines = { knucklebones, tellstones } as const satisfies Record<string, AnyEngine>;

export type GameKind = keyof typeof engines;

/** True when `kind` names an engine (own keys only, so `toString` and friends are not kinds). */
export function isGameKind(kind: string): kind is GameKind {
  return Object.hasOwn(engines, kind);
}

/** The engine for `kind`, or undefined when there is none. */
export function getEngine(kind: string): AnyEngine | undefined {
  return isGameKind(kind) ? engines[kind] : undefined;
}
