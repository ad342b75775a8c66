import { Injectable } from '@nestjs/common';
import { Clock } from '../../../platform/clock';
import { Metrics } from '../../../platform/metrics/metrics';
import { FeedCursorStore } from './feed-cursor-store';

/**
 * `detection_feed_cursor_age_seconds` by register and feed (`changes`, or a stream beside it):
 * how long ago each register feed was last read to its end (before it ever was, since its
 * cursor was last written), read at scrape from `feed_cursor`. Worker only: the figure is the
 * same from every worker (aggregate with max).
 */
@Injectable()
export class FeedCursorMetrics {
  constructor(metrics: Metrics, cursors: FeedCursorStore, clock: Clock) {
    metrics.collectedGauge(
      {
        name: 'detection_feed_cursor_age_seconds',
        help: 'Seconds since each register feed was last read to its end, by register and feed.',
        labelNames: ['register', 'feed'],
      },
      async (gauge) => {
        const now = clock.now().getTime();
        for (const c of await cursors.all()) {
          const at = c.caughtUpAt ?? c.updatedAt;
          const feed = c.feed.slice(c.feed.indexOf(':') + 1);
          gauge.set({ register: c.country, feed }, Math.max(0, (now - new Date(at).getTime()) / 1000));
        }
      },
    );
  }
}
