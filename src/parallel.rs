//! The ordered parallel scheduler: run a job per item on several threads and hand each
//! result to a sink **in item order**, whatever the number of threads, so that output is
//! identical for `-j 1` and `-j N`. Memory stays bounded: a worker never runs more than
//! [`LOOK_AHEAD`] items ahead of the sink.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// How many items past the last one handed to the sink a worker may start.
pub const LOOK_AHEAD: usize = 256;

/// The default worker count: the machine's parallelism.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Run `work` on every item with `jobs` threads and pass each result to `sink`, in item
/// order. A sink error (a closed pipe, say) stops the run and is returned; a panic in `work`
/// or `sink` reaches the caller.
pub fn ordered<I, T, W, S>(items: &[I], jobs: usize, work: W, mut sink: S) -> io::Result<()>
where
    I: Sync,
    T: Send,
    W: Fn(&I) -> T + Sync,
    S: FnMut(T) -> io::Result<()> + Send,
{
    let jobs = jobs.max(1).min(items.len().max(1));
    if jobs == 1 {
        for item in items {
            sink(work(item))?;
        }
        return Ok(());
    }
    // Whichever worker finishes an item hands out the results now in order; the calling
    // thread is one of the workers. No thread waits for results: a thread that did only
    // that was woken once per item (`docs/performance.md`, third pass). While one worker
    // feeds the sink (which may be slow: `calls` reads texts back and formats rows), the
    // others go on with their items and leave their results to it.
    let next_index = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let window = Window::new(sink);
    let run = || loop {
        // A worker that panics (a bug) leaves a hole the output cannot pass: it stops the
        // others, so that the panic reaches the caller instead of every worker waiting.
        let _guard = StopOnPanic(&|| window.stop(&stop));
        // Items are taken in order, each by the first free worker.
        let i = next_index.fetch_add(1, Ordering::Relaxed);
        let Some(item) = items.get(i) else {
            return;
        };
        if stop.load(Ordering::Relaxed) || !window.wait_for_room(i, &stop) {
            return;
        }
        let result = work(item);
        if !window.put(i, result) {
            // The sink failed (a closed pipe, say): every worker winds down.
            window.stop(&stop);
            return;
        }
    };
    std::thread::scope(|scope| {
        for w in 1..jobs {
            let spawned = std::thread::Builder::new()
                .name(format!("rollscope-{w}"))
                .spawn_scoped(scope, run);
            if spawned.is_err() {
                // No more threads to be had: the ones running do all the items.
                break;
            }
        }
        run();
    });
    // Every worker has let go of the sink after looking at the queue, so nothing is left in
    // it; were a result left (a `try_lock` that failed for no holder, which std does not
    // rule out), it goes out here rather than never.
    window.put_rest();
    let (_, result) = window.sink.into_inner().unwrap_or_else(|e| e.into_inner());
    result
}

/// Stops the run when dropped by a panicking worker.
struct StopOnPanic<'a>(&'a dyn Fn());

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            (self.0)();
        }
    }
}

/// The reorder window of a parallel run: finished results wait in `queue` until every
/// earlier one has gone to the sink.
struct Window<T, S> {
    queue: Mutex<Queue<T>>,
    /// Signalled when `next` moves on (or the run stops), for workers waiting for room.
    moved: Condvar,
    /// The sink and its first error (which stops the run). Held by one worker at a time,
    /// the one handing results out.
    sink: Mutex<(S, io::Result<()>)>,
}

struct Queue<T> {
    pending: BTreeMap<usize, T>,
    /// The index of the next result for the sink.
    next: usize,
    /// Workers waiting for `next` to move on.
    waiting: usize,
}

impl<T, S: FnMut(T) -> io::Result<()>> Window<T, S> {
    fn new(sink: S) -> Self {
        Window {
            queue: Mutex::new(Queue {
                pending: BTreeMap::new(),
                next: 0,
                waiting: 0,
            }),
            moved: Condvar::new(),
            sink: Mutex::new((sink, Ok(()))),
        }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue<T>> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stop the run: no worker starts another item, and none waits any longer.
    fn stop(&self, stop: &AtomicBool) {
        // Set under the lock a waiting worker checks it under, so none can miss it.
        let _q = self.queue();
        stop.store(true, Ordering::Relaxed);
        self.moved.notify_all();
    }

    /// Wait while item `i` is too far ahead of the output: pending results (and so memory)
    /// stay bounded whatever the number of items. False when the run was stopped.
    fn wait_for_room(&self, i: usize, stop: &AtomicBool) -> bool {
        let mut q = self.queue();
        while i >= q.next + LOOK_AHEAD && !stop.load(Ordering::Relaxed) {
            q.waiting += 1;
            q = self.moved.wait(q).unwrap_or_else(|e| e.into_inner());
            q.waiting -= 1;
        }
        !stop.load(Ordering::Relaxed)
    }

    /// Hand out what is in order, once the workers are done.
    fn put_rest(&self) {
        // (The queue's lock is let go before `put` takes it again.)
        let rest = {
            let mut q = self.queue();
            let next = q.next;
            q.pending.remove(&next).map(|r| (next, r))
        };
        if let Some((next, r)) = rest {
            self.put(next, r);
        }
    }

    /// Queue result `i`, then hand out what is in order unless another worker is doing so
    /// (it will take this one too). False once the sink has failed.
    fn put(&self, i: usize, result: T) -> bool {
        self.queue().pending.insert(i, result);
        loop {
            let mut sink = match self.sink.try_lock() {
                Ok(s) => s,
                // The sink panicked (the panic is on its way to the caller): it is not
                // called again, half-way through a row as it may be.
                Err(std::sync::TryLockError::Poisoned(_)) => return false,
                // The worker holding the sink looks again once it lets go of it.
                Err(std::sync::TryLockError::WouldBlock) => return true,
            };
            if sink.1.is_err() {
                return false;
            }
            loop {
                let next = {
                    let mut q = self.queue();
                    let n = q.next;
                    let r = q.pending.remove(&n);
                    if r.is_some() {
                        q.next += 1;
                        if q.waiting > 0 {
                            self.moved.notify_all();
                        }
                    }
                    r
                };
                let Some(r) = next else { break };
                if let Err(e) = (sink.0)(r) {
                    sink.1 = Err(e);
                    self.queue().pending.clear();
                    return false;
                }
            }
            drop(sink);
            // A result that came while the sink was held, and was left to this worker.
            let q = self.queue();
            if !q.pending.contains_key(&q.next) {
                return true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More items than the reorder window, the first one slow (so the workers that run
    /// ahead of it wait for the output); item `i`'s result is `i % 7 + 1`.
    fn many() -> Vec<usize> {
        (0..LOOK_AHEAD * 3).collect()
    }

    fn work(&i: &usize) -> usize {
        if i == 0 {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        i % 7 + 1
    }

    #[test]
    fn results_reach_the_sink_in_item_order_for_any_job_count() {
        let items = many();
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            ordered(&items, jobs, work, |r| {
                // A slow sink now and then, so that results queue while it is held.
                if seen.len() % 64 == 1 {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                seen.push(r);
                Ok(())
            })
            .unwrap();
            let want: Vec<usize> = items.iter().map(|i| i % 7 + 1).collect();
            assert_eq!(seen, want, "-j {jobs}");
        }
    }

    #[test]
    fn a_failing_sink_stops_the_run_and_its_error_is_returned() {
        let items = many();
        for jobs in [1, 2, 4] {
            let mut calls = 0;
            let err = ordered(&items, jobs, work, |_| {
                calls += 1;
                if calls == 10 {
                    return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
                }
                Ok(())
            })
            .unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::BrokenPipe, "-j {jobs}");
            assert_eq!(
                calls, 10,
                "-j {jobs}: the sink is not called after it failed"
            );
        }
    }

    /// Runs `f` on its own thread: its result (a panic caught), or `None` when it has not
    /// finished within `secs` (a hang).
    fn within<T: Send + 'static>(
        secs: u64,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<std::thread::Result<T>> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
        });
        rx.recv_timeout(std::time::Duration::from_secs(secs)).ok()
    }

    #[test]
    fn a_panicking_job_reaches_the_caller_instead_of_hanging_the_workers() {
        for jobs in [2, 4] {
            let run = within(60, move || {
                // Item 1 panics; the others run up to the window past it and wait.
                let items = many();
                let work = |&i: &usize| {
                    if i == 1 {
                        panic!("a job bug");
                    }
                    work(&i)
                };
                ordered(&items, jobs, work, |_| Ok(()))
            });
            let run = run.unwrap_or_else(|| panic!("-j {jobs}: the run hung"));
            assert!(run.is_err(), "-j {jobs}: the panic reaches the caller");
        }
    }

    #[test]
    fn a_panicking_sink_is_not_called_again_and_hangs_nothing() {
        for jobs in [2, 4] {
            let calls = std::sync::Arc::new(AtomicUsize::new(0));
            let counted = calls.clone();
            let run = within(60, move || {
                ordered(&many(), jobs, work, |_| {
                    if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                        // Slow, so the other workers fill the window meanwhile.
                        std::thread::sleep(std::time::Duration::from_millis(300));
                        panic!("a sink bug");
                    }
                    Ok(())
                })
            });
            let run = run.unwrap_or_else(|| panic!("-j {jobs}: the run hung"));
            assert!(run.is_err(), "-j {jobs}: the panic reaches the caller");
            assert_eq!(calls.load(Ordering::SeqCst), 1, "-j {jobs}");
        }
    }

    #[test]
    fn what_is_left_in_the_queue_at_the_end_goes_out_in_order() {
        let run = within(30, move || {
            let mut seen = Vec::new();
            let window = Window::new(|r: usize| {
                seen.push(r);
                Ok(())
            });
            // As if a worker had queued them and found the sink held.
            for i in 0..3 {
                window.queue().pending.insert(i, i * 10);
            }
            window.put_rest();
            drop(window);
            seen
        });
        let seen = run.expect("put_rest hung").unwrap();
        assert_eq!(seen, [0, 10, 20]);
    }
}
