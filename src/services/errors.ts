/**
 * A refusal the user can act on: the bot shows `message` ephemerally and nothing changes.
 * `code` is stable (tests assert it), e.g. `game/not-participant`, `knucklebones/column-full`.
 */
export class UserError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'UserError';
    this.code = code;
  }
}
