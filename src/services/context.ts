/**
 * What every service call needs (declared beside the game registry it carries, so that the two
 * do not import each other).
 */
export type { ServiceContext } from './registry.ts';
