import type { AppMessage, SystemMessage } from '@scriptorium/common/ws/messages';
import type { ZodType } from 'zod';
import { type AnyWsEndpoint, defineWsEndpoint } from './endpoint';

/** Handler of one kind of client application message on ${ws_url_base}/base/. */
export interface BaseMessageHandler<Message extends AppMessage> {
  schema: ZodType<Message>;
  handle(message: Message, userId: number): Promise<void> | void;
}

/** Features (and tests) that take client messages on the app-wide socket register them here. */
export interface BaseEndpointExtension {
  on<Message extends AppMessage>(type: Message['type'], handler: BaseMessageHandler<Message>): void;
}

/**
 * ${ws_url_base}/base/: the app-wide connection of every logged-in page (system messages, and
 * whatever features register). Any logged-in user is admitted.
 */
export function createBaseEndpoint(): { endpoint: AnyWsEndpoint; extension: BaseEndpointExtension } {
  const schemas: Record<string, ZodType<AppMessage>> = {};
  const handlers = new Map<string, (message: AppMessage, userId: number) => Promise<void> | void>();
  const endpoint = defineWsEndpoint<AppMessage, SystemMessage, true>({
    name: 'base',
    withId: false,
    clientMessages: schemas,
    admit: async () => true,
    handle: async (socket, message) => {
      await handlers.get(message.type)?.(message, socket.user.id);
    },
  });
  return {
    endpoint,
    extension: {
      on(type, handler) {
        schemas[type] = handler.schema;
        handlers.set(type, (message, userId) => handler.handle(handler.schema.parse(message), userId));
      },
    },
  };
}
