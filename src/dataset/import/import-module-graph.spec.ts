/**
 * The dataset import starts as a process of its own for each file (`npm run dataset:import`):
 * what it loads is time before the first row. It reads bulk files and writes Postgres; it
 * makes no request to a register and runs no NestJS application, so it must not load them
 * (NestJS's common package, axios and the Redis client were 0.2–0.3 s of its start).
 */
describe('the dataset import command', () => {
  it('loads neither NestJS nor the HTTP and Redis clients', () => {
    jest.isolateModules(() => {
      for (const name of ['@nestjs/common', '@nestjs/core', '@nestjs/typeorm', 'axios', 'ioredis', 'bull']) {
        jest.doMock(name, () => {
          throw new Error(`the dataset import loaded ${name}`);
        });
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      expect(() => require('./dataset-import-cli')).not.toThrow();
    });
  });
});
