import RequestQueue from 'kafkajs/src/network/requestQueue/index.js';

/**
 * kafkajs 2.2.4 re-arms a timer of `throttledUntil - now` (a large negative number, so 1 ms) after
 * every response even when nothing waits: a 1 ms polling loop per connection, about 40 ms of CPU
 * per second for an idle bus, and a TimeoutNegativeWarning on Node 24
 * (https://github.com/tulios/kafkajs/issues/1751, unreleased fix in PR #1768). With nothing
 * pending and no throttle there is nothing to check: a new request is sent directly or re-arms
 * the check itself when it has to queue.
 */
const proto = RequestQueue.prototype;
const schedule = proto.scheduleCheckPendingRequests;
if (typeof schedule === 'function' && !(schedule as { idleFix?: boolean }).idleFix) {
  const fixed = function (this: typeof proto) {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    schedule.call(this);
  };
  proto.scheduleCheckPendingRequests = Object.assign(fixed, { idleFix: true });
}
