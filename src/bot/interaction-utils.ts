import { MessageFlags, PermissionFlagsBits, type AutocompleteInteraction, type BaseInteraction, type User } from 'discord.js';
import { UserError } from '../services/errors.ts';
import { clip } from './format.ts';

export const EPHEMERAL = MessageFlags.Ephemeral;

export function displayName(user: User): string {
  return user.globalName ?? user.username;
}

export function requireGuild(interaction: BaseInteraction): string {
  if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Use this command in a server channel, not in DMs.');
  return interaction.guildId;
}

/** What the moderator check needs from the invoking member. */
export function memberAuthority(interaction: BaseInteraction): { manageGuild: boolean; roleIds: string[] } {
  const member = interaction.member;
  const roles = member ? (Array.isArray(member.roles) ? member.roles : [...member.roles.cache.keys()]) : [];
  return { manageGuild: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false, roleIds: roles };
}

/** Autocomplete answers are capped at 25 choices of at most 100 characters. */
export async function respondChoices(interaction: AutocompleteInteraction, choices: Array<{ name: string; value: number | string }>): Promise<void> {
  await interaction.respond(choices.slice(0, 25).map((c) => ({ name: clip(c.name, 100), value: c.value })));
}
