"""Objects bound to one asyncio event loop (semaphores, HTTP connection pools).

Orchestration may call ``asyncio.run`` once per asset, so a long-lived gateway
sees several event loops; a semaphore or keep-alive connection made under one
loop fails under the next. ``PerLoop`` keeps one instance per running loop and
forgets it when the loop is garbage-collected.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerLoop(Generic[T]):
    """One ``factory()`` result per running event loop."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = weakref.WeakKeyDictionary()

    def get(self) -> T:
        """The instance for the running loop (made on first use); call from inside a coroutine."""
        loop = asyncio.get_running_loop()
        value = self._by_loop.get(loop)
        if value is None:
            value = self._factory()
            self._by_loop[loop] = value
        return value
