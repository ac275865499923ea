import { z } from 'zod';
import { SYSTEM_MESSAGE_MAX_LENGTH } from './messages';

/** POST /api/base/send_system_message/ (staff): shown to every connected user. */
export const sendSystemMessageRequest = z.object({
  message: z.string().trim().min(1).max(SYSTEM_MESSAGE_MAX_LENGTH),
});
export type SendSystemMessageRequest = z.infer<typeof sendSystemMessageRequest>;

/** GET /api/base/connection_info/ (staff): live connections over all server processes. */
export const connectionInfo = z.object({
  /** Distinct logged-in users with at least one open socket. */
  users: z.number().int().nonnegative(),
  /** Open sockets. */
  sockets: z.number().int().nonnegative(),
  /** Server processes that reported their connections. */
  processes: z.number().int().nonnegative(),
});
export type ConnectionInfo = z.infer<typeof connectionInfo>;
