import type { AppMessage } from '@scriptorium/common/ws/messages';
import { describe, expect, it } from 'vitest';
import { countedFrame, shareBody } from './frame-text';

const text = (frame: Buffer | string) => (typeof frame === 'string' ? frame : frame.toString('utf8'));

describe('countedFrame', () => {
  it('gives a shared body the bytes JSON.stringify gives the stamped message, non-ASCII text included', () => {
    const relayed: AppMessage = {
      type: 'diff',
      v: 3,
      ds: [
        {
          stepType: 'replace',
          from: 5,
          to: 5,
          slice: { content: [{ type: 'text', text: 'Grüße, 𝛼 "quoted"\n' }] },
        },
      ],
      cids: ['a'],
    };
    const alone: AppMessage = JSON.parse(JSON.stringify(relayed));
    shareBody(relayed);
    for (const counters of [
      { c: 0, s: 1 },
      { c: 17, s: 123456 },
    ]) {
      const frame = countedFrame(relayed, counters);
      expect(Buffer.isBuffer(frame)).toBe(true);
      expect(text(frame)).toBe(JSON.stringify({ ...alone, ...counters }));
      // A message sent to one socket is not kept: serialised as before.
      expect(countedFrame(alone, counters)).toBe(JSON.stringify({ ...alone, ...counters }));
    }
  });

  it('serialises a shared message once: a later change of the object does not reach the frames', () => {
    const message = { type: 'participants', participants: [] as string[] };
    shareBody(message);
    message.participants.push('changed after sharing');
    expect(text(countedFrame(message, { c: 1, s: 2 }))).toBe(
      '{"type":"participants","participants":[],"c":1,"s":2}',
    );
  });
});
