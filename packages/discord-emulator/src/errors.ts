/**
 * Discord-shaped errors. Every REST failure is `{ code, message, errors? }` with the HTTP status Discord
 * uses; form errors nest by field path and end in `_errors: [{ code, message }]`.
 */
export interface FieldError {
  code: string;
  message: string;
}

/** `{ content: { _errors: [...] }, embeds: { "0": { title: { _errors: [...] } } } }` */
export interface ErrorTree {
  _errors?: FieldError[];
  [key: string]: ErrorTree | FieldError[] | undefined;
}

export interface DiscordErrorBody {
  code: number;
  message: string;
  errors?: ErrorTree;
}

export type FieldPath = ReadonlyArray<string | number>;

/** Collects field errors under their paths, in the order found. */
export class FormErrors {
  readonly tree: ErrorTree = {};
  private count = 0;

  add(path: FieldPath, code: string, message: string): void {
    let node: ErrorTree = this.tree;
    for (const key of path) {
      const k = String(key);
      const next = node[k];
      if (next && !Array.isArray(next)) node = next;
      else {
        const created: ErrorTree = {};
        node[k] = created;
        node = created;
      }
    }
    (node._errors ??= []).push({ code, message });
    this.count++;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  /** Every error as `path: CODE message`, for logs. */
  flatten(): string[] {
    const out: string[] = [];
    const walk = (node: ErrorTree, path: string[]) => {
      for (const [key, value] of Object.entries(node)) {
        if (key === '_errors' && Array.isArray(value)) {
          for (const e of value) out.push(`${path.join('.') || '(body)'}: ${e.code} ${e.message}`);
        } else if (value && !Array.isArray(value)) walk(value, [...path, key]);
      }
    };
    walk(this.tree, []);
    return out;
  }
}

/** Thrown by route handlers; the HTTP layer turns it into a Discord error response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: ErrorTree,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get body(): DiscordErrorBody {
    return this.errors ? { code: this.code, message: this.message, errors: this.errors } : { code: this.code, message: this.message };
  }

  static form(errors: FormErrors): ApiError {
    return new ApiError(400, 50035, 'Invalid Form Body', errors.tree);
  }
}

/** Discord's JSON error codes and messages (https://discord.com/developers/docs/topics/opcodes-and-status-codes). */
export const Errors = {
  unauthorized: () => new ApiError(401, 0, '401: Unauthorized'),
  notFound: () => new ApiError(404, 0, '404: Not Found'),
  methodNotAllowed: () => new ApiError(405, 0, '405: Method Not Allowed'),
  unknownChannel: () => new ApiError(404, 10003, 'Unknown Channel'),
  unknownGuild: () => new ApiError(404, 10004, 'Unknown Guild'),
  unknownMember: () => new ApiError(404, 10007, 'Unknown Member'),
  unknownMessage: () => new ApiError(404, 10008, 'Unknown Message'),
  unknownRole: () => new ApiError(404, 10011, 'Unknown Role'),
  unknownUser: () => new ApiError(404, 10013, 'Unknown User'),
  unknownEmoji: () => new ApiError(400, 10014, 'Unknown Emoji'),
  unknownWebhook: () => new ApiError(404, 10015, 'Unknown Webhook'),
  unknownApplication: () => new ApiError(404, 10002, 'Unknown Application'),
  unknownCommand: () => new ApiError(404, 10063, 'Unknown application command'),
  unknownInteraction: () => new ApiError(404, 10062, 'Unknown interaction'),
  alreadyAcknowledged: () => new ApiError(400, 40060, 'Interaction has already been acknowledged.'),
  missingAccess: () => new ApiError(403, 50001, 'Missing Access'),
  cannotEditOthers: () => new ApiError(403, 50005, 'Cannot edit a message authored by another user'),
  emptyMessage: () => new ApiError(400, 50006, 'Cannot send an empty message'),
  cannotSendToUser: () => new ApiError(403, 50007, 'Cannot send messages to this user'),
  missingPermissions: () => new ApiError(403, 50013, 'Missing Permissions'),
  invalidWebhookToken: () => new ApiError(401, 50027, 'Invalid Webhook Token'),
  invalidFormBody: (path: FieldPath, code: string, message: string) => {
    const f = new FormErrors();
    f.add(path, code, message);
    return ApiError.form(f);
  },
  badJson: () => new ApiError(400, 50109, 'The request body contains invalid JSON.'),
} as const;
