import { InProcessJobQueue } from './in-process-job-queue';

describe('InProcessJobQueue (the embedded job runner)', () => {
  it('runs each job id once, however often it is added', async () => {
    const q = new InProcessJobQueue();
    const seen: string[] = [];
    q.process<{ n: string }>('probe', async (d) => void seen.push(d.n));
    await q.add('probe', { n: 'a' }, { jobId: 'x' });
    await q.add('probe', { n: 'b' }, { jobId: 'x' });
    await q.add('probe', { n: 'c' }, { jobId: 'y' });
    await q.drain();
    expect(seen).toEqual(['a', 'c']);
  });

  it('retries a failing job with exponential backoff up to its attempts', async () => {
    const q = new InProcessJobQueue();
    const attempts: Array<[number, number]> = [];
    const start = Date.now();
    q.process('probe', async (_d, attempt) => {
      attempts.push([attempt, Date.now() - start]);
      if (attempt < 3) throw new Error('not yet');
    });
    await q.add('probe', {}, { attempts: 3, backoffMs: 50 });
    await q.drain();
    expect(attempts.map((a) => a[0])).toEqual([1, 2, 3]);
    expect(attempts[1][1]).toBeGreaterThanOrEqual(45);
    expect(attempts[2][1] - attempts[1][1]).toBeGreaterThanOrEqual(95);
  });

  it('holds jobs added before their handler is registered, and honours concurrency', async () => {
    const q = new InProcessJobQueue();
    for (let i = 0; i < 6; i++) await q.add('probe', { i });
    let running = 0;
    let most = 0;
    q.process('probe', async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
    }, 2);
    await q.drain();
    expect(most).toBe(2);
  });

  it('on shutdown drops waiting jobs and retries but lets the running one finish', async () => {
    const q = new InProcessJobQueue();
    let finished = 0;
    let started = 0;
    q.process('probe', async () => {
      started++;
      await new Promise((r) => setTimeout(r, 100));
      finished++;
    });
    await q.add('probe', {});
    await q.add('probe', {});
    await new Promise((r) => setTimeout(r, 20));
    await q.beforeApplicationShutdown();
    expect([started, finished]).toEqual([1, 1]);
  });
});
