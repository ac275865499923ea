import type { PiscinaTask } from 'piscina';
import { describe, expect, it } from 'vitest';
import type { UploadTask } from './tasks';
import { AnswersFirstQueue } from './worker-pool';

const queued = (task: UploadTask) => ({ task }) as unknown as PiscinaTask;

describe('the upload pool queue', () => {
  it('gives a waiting answer the next free worker before thumbnails, each kind in order', () => {
    const queue = new AnswersFirstQueue();
    const thumbnailA = queued({ kind: 'thumbnail', file: 'a.jpg' });
    const thumbnailB = queued({ kind: 'thumbnail', file: 'b.jpg' });
    const image = queued({ kind: 'image', bytes: new Uint8Array(1) });
    const flatpage = queued({ kind: 'flatpage', html: '<p>x</p>' });
    for (const task of [thumbnailA, thumbnailB, image, flatpage]) queue.push(task);
    expect(queue.size).toBe(4);
    expect([queue.shift(), queue.shift(), queue.shift(), queue.shift(), queue.shift()]).toEqual([
      image,
      flatpage,
      thumbnailA,
      thumbnailB,
      null,
    ]);
  });

  it('forgets a task removed while it waited (its time budget ran out)', () => {
    const queue = new AnswersFirstQueue();
    const thumbnail = queued({ kind: 'thumbnail', file: 'a.jpg' });
    const image = queued({ kind: 'image', bytes: new Uint8Array(1) });
    queue.push(thumbnail);
    queue.push(image);
    queue.remove(thumbnail);
    expect(queue.size).toBe(1);
    expect(queue.shift()).toBe(image);
    expect(queue.shift()).toBeNull();
  });
});
