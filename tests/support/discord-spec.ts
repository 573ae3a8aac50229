// Discord's pinned API spec and its checker live with the emulator (packages/discord-emulator/spec,
// one pin for the emulator's own checks and the bot's).
export * from '@stonehall/discord-emulator/spec-check';
