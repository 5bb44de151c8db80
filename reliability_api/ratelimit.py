"""A token bucket per caller for write endpoints (in process; a deployment
with several API processes puts a shared limiter in front)."""

import threading
import time
from collections.abc import Callable


class TokenBucketLimiter:
    """``rate`` requests per second with bursts up to ``burst``, per key."""

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> tuple[bool, float]:
        """Whether a request under ``key`` may proceed, and seconds to wait if not."""
        with self._lock:
            now = self._now()
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return True, 0.0
            self._buckets[key] = (tokens, now)
            return False, (1.0 - tokens) / self.rate
