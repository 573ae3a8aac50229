import { knucklebonesPresenter } from './knucklebones.ts';
import { tellstonesPresenter } from './tellstones.ts';
import type { GamePresenter } from './types.ts';

export const presenters: Record<string, GamePresenter<never>> = {
  knucklebones: knucklebonesPresenter as GamePresenter<never>,
  tellstones: tellstonesPresenter as GamePresenter<never>,
};

export function presenterFor(kind: string): GamePresenter<unknown> {
  const p = presenters[kind];
  if (!p) throw new Error(`no presenter for ${kind}`);
  return p as GamePresenter<unknown>;
}
