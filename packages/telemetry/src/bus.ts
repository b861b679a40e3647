/**
 * The Bus port with trace context: every request and publish is a PRODUCER span whose context
 * travels in the message's headers (`traceparent`, `tracestate`), and every handler runs in a
 * CONSUMER span whose parent comes from those headers alone, so the link survives Kafka.
 */
import { SpanKind } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import type { Bus, Message } from '@parcel-logistics/bus';
import {
  ATTR_MESSAGING_CONSUMER_GROUP_NAME,
  ATTR_MESSAGING_DESTINATION_NAME,
  ATTR_MESSAGING_MESSAGE_ID,
  ATTR_MESSAGING_OPERATION_TYPE,
  ATTR_MESSAGING_SYSTEM,
  ATTR_PARCEL_COMMAND_TYPE,
  ATTR_PARCEL_EVENT_TYPE,
} from './attributes.ts';
import { inSpan, parentFrom, traceHeaders } from './spans.ts';

type Kind = 'command' | 'event';

/** `system` names the transport in `messaging.system`: `kafka` or `in-process`. */
export function tracedBus(bus: Bus, system: string): Bus {
  const attributes = (topic: string, message: Message, kind: Kind, operation: 'send' | 'process'): Attributes => ({
    [ATTR_MESSAGING_SYSTEM]: system,
    [ATTR_MESSAGING_DESTINATION_NAME]: topic,
    [ATTR_MESSAGING_OPERATION_TYPE]: operation,
    [ATTR_MESSAGING_MESSAGE_ID]: message.id,
    [kind === 'command' ? ATTR_PARCEL_COMMAND_TYPE : ATTR_PARCEL_EVENT_TYPE]: message.type,
  });

  function produce<T>(topic: string, message: Message, kind: Kind, send: (message: Message) => Promise<T>): Promise<T> {
    return inSpan(
      `send ${topic}`,
      { kind: SpanKind.PRODUCER, attributes: () => attributes(topic, message, kind, 'send') },
      (span) => {
        // A span that records nothing (no tracer) has no context to carry: the message goes as it came.
        const context = traceHeaders(span);
        return send(
          Object.keys(context).length === 0 ? message : { ...message, headers: { ...message.headers, ...context } },
        );
      },
    );
  }

  function consume<T>(
    topic: string,
    message: Message,
    kind: Kind,
    handle: () => Promise<T>,
    extra: Attributes = {},
  ): Promise<T> {
    const span = {
      kind: SpanKind.CONSUMER,
      attributes: () => ({ ...attributes(topic, message, kind, 'process'), ...extra }),
      parent: parentFrom(message.headers),
    };
    return inSpan(`process ${topic}`, span, handle);
  }

  return {
    request: <TReply>(topic: string, message: Message, options: { timeoutMs: number }) =>
      produce(topic, message, 'command', (sent) => bus.request<TReply>(topic, sent, options)),
    handleRequests: (topic, handler) =>
      bus.handleRequests(topic, (message) => consume(topic, message, 'command', () => handler(message))),
    publish: (topic, message) => produce(topic, message, 'event', (sent) => bus.publish(topic, sent)),
    subscribe: (topic, group, handler) =>
      bus.subscribe(topic, group, (message) =>
        consume(topic, message, 'event', () => handler(message), { [ATTR_MESSAGING_CONSUMER_GROUP_NAME]: group }),
      ),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}
