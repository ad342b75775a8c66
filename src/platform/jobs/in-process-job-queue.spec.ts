import { InProcessJobQueue } from './in-process-job-queue';
import { queueDefinitions } from './job-queue';
import { PROBE_QUEUE, ProbeJob } from '../../status/probe/probe.queue';

/** The probe queue with a fast schedule: 3 tries, 50 ms then 100 ms apart, 2 at once. */
const FAST_PROBE = { ...PROBE_QUEUE, attempts: 3, backoffMs: [50, 100], concurrency: 2 };
const FAST = queueDefinitions([FAST_PROBE]);
const job = (n: number): ProbeJob => ({
  country: 'NO',
  slotStart: new Date(Date.UTC(2026, 10, 22, 0, n)).toISOString(),
});

/** Polls `done` every 5 ms, for up to 5 s. */
async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('InProcessJobQueue (the embedded job runner)', () => {
  it('runs each job id once, however often it is added', async () => {
    const q = new InProcessJobQueue(FAST);
    const seen: string[] = [];
    q.process(PROBE_QUEUE, { process: async (d) => void seen.push(d.slotStart) });
    await q.add(PROBE_QUEUE, job(1), { jobId: 'x' });
    await q.add(PROBE_QUEUE, job(2), { jobId: 'x' });
    await q.add(PROBE_QUEUE, job(3), { jobId: 'y' });
    await q.drain();
    expect(seen).toEqual([job(1).slotStart, job(3).slotStart]);
  });

  it('retries a failing job on the queue’s backoff schedule, then calls the final-failure hook once', async () => {
    const q = new InProcessJobQueue(FAST);
    const tries: Array<[number, number]> = [];
    const finals: Error[] = [];
    const start = Date.now();
    q.process(PROBE_QUEUE, {
      process: async (_d, attempt) => {
        tries.push([attempt, Date.now() - start]);
        throw new Error(`no ${attempt}`);
      },
      onFinalFailure: async (_d, err) => void finals.push(err),
    });
    await q.add(PROBE_QUEUE, job(1));
    await q.drain();
    expect(tries.map((a) => a[0])).toEqual([1, 2, 3]);
    expect(tries[1][1]).toBeGreaterThanOrEqual(45);
    expect(tries[2][1] - tries[1][1]).toBeGreaterThanOrEqual(95);
    expect(finals.map((e) => e.message)).toEqual(['no 3']);
  });

  it('counts its jobs by state for the metrics: waiting, active, delayed (a retry), failed for good', async () => {
    const q = new InProcessJobQueue(FAST);
    const probe = async () => (await q.counts()).find((c) => c.queue === PROBE_QUEUE.name)!;
    expect(await probe()).toEqual({ queue: 'probe', waiting: 0, active: 0, delayed: 0, failed: 0 });
    const release: Array<() => void> = [];
    let tries = 0;
    q.process(PROBE_QUEUE, {
      process: (d) =>
        d.slotStart === job(9).slotStart
          ? Promise.reject(new Error(`try ${++tries}`))
          : new Promise<void>((resolve) => release.push(resolve)),
    });
    for (const n of [1, 2, 3]) await q.add(PROBE_QUEUE, job(n));
    await q.add(PROBE_QUEUE, job(4), { delayMs: 60_000 });
    await new Promise((r) => setImmediate(r));
    // Two at once (the queue's concurrency), one waiting, one delayed.
    expect(await probe()).toMatchObject({ waiting: 1, active: 2, delayed: 1, failed: 0 });
    release.splice(0).forEach((r) => r());
    await until(async () => release.length === 1);
    expect(await probe()).toMatchObject({ waiting: 0, active: 1, delayed: 1 });
    release.splice(0).forEach((r) => r());
    // A job failing its 3 tries: delayed between them, then failed for good.
    await q.add(PROBE_QUEUE, job(9));
    await until(async () => tries === 1 && (await probe()).active === 0);
    expect(await probe()).toMatchObject({ delayed: 2, failed: 0 });
    await until(async () => (await probe()).failed === 1);
    expect(tries).toBe(3);
    expect(await probe()).toMatchObject({ waiting: 0, active: 0, delayed: 1, failed: 1 });
    await q.beforeApplicationShutdown();
    expect(await probe()).toMatchObject({ delayed: 0 });
  });

  it('takes no try of a payload that does not match the queue’s type, and reports it as a final failure', async () => {
    const q = new InProcessJobQueue(FAST);
    let ran = 0;
    const finals: string[] = [];
    q.process(PROBE_QUEUE, {
      process: async () => void ran++,
      onFinalFailure: async (_d, err) => void finals.push(err.message),
    });
    await q.add(PROBE_QUEUE, { country: 'XX', slotStart: 'yesterday' } as unknown as ProbeJob);
    await q.drain();
    expect(ran).toBe(0);
    expect(finals).toHaveLength(1);
    expect(finals[0]).toMatch(/invalid probe job payload: country: .*slotStart/);
  });

  it('holds jobs added before their processor is registered, honours concurrency and delays', async () => {
    const q = new InProcessJobQueue(FAST);
    for (let i = 0; i < 6; i++) await q.add(PROBE_QUEUE, job(i));
    const started: number[] = [];
    const t0 = Date.now();
    await q.add(PROBE_QUEUE, job(59), { delayMs: 150 });
    let running = 0;
    let most = 0;
    q.process(PROBE_QUEUE, {
      process: async (d) => {
        started.push(Date.now() - t0);
        if (d.slotStart === job(59).slotStart) expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
      },
    });
    await q.drain();
    expect(most).toBe(2);
    expect(started).toHaveLength(7);
  });

  it('on shutdown drops waiting jobs and retries but lets the running one finish', async () => {
    const q = new InProcessJobQueue(queueDefinitions([{ ...FAST_PROBE, concurrency: 1 }]));
    let finished = 0;
    let started = 0;
    q.process(PROBE_QUEUE, {
      process: async () => {
        started++;
        await new Promise((r) => setTimeout(r, 100));
        finished++;
      },
    });
    await q.add(PROBE_QUEUE, job(1));
    await q.add(PROBE_QUEUE, job(2));
    await new Promise((r) => setTimeout(r, 20));
    await q.beforeApplicationShutdown();
    expect([started, finished]).toEqual([1, 1]);
  });
});
