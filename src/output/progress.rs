//! The progress bar of a run over many files, on stderr: files and bytes done of the total,
//! the rate and the time left.
//!
//! Shown only when stderr is a terminal (not `TERM=dumb`), `-q` is not given,
//! `ROLLSCOPE_PROGRESS` is not `never`, and the pass has run longer than
//! `ROLLSCOPE_PROGRESS_DELAY` milliseconds (default 1000; `0` shows it at once). A pipe never
//! sees it: the output of a run in a pipe is the same, byte for byte, as without it.
//!
//! The run feeds it through [`Progress::file_done`], one relaxed atomic add a file; a thread
//! of its own draws the bar from that count a few times a second, so the reading never
//! waits for the terminal. Bytes are the files' sizes on disk, taken by that thread (a
//! `.zst` counts its compressed bytes, standard input none), and are counted done as each
//! file is done.
//!
//! While the bar is shown, whatever else goes to the terminal makes room for it: the
//! diagnostics on stderr, and rows written to stdout as they come when stdout is the
//! terminal too ([`suspend`], [`rows`]). It is cleared at the end of the pass, before a
//! table is printed.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// How long a pass runs before its bar is shown, in milliseconds.
pub const DELAY_ENV: &str = "ROLLSCOPE_PROGRESS_DELAY";
/// `never` turns the bar off.
pub const MODE_ENV: &str = "ROLLSCOPE_PROGRESS";
/// The delay when [`DELAY_ENV`] does not set one.
pub const DEFAULT_DELAY: Duration = Duration::from_millis(1000);
/// How often the bar is brought up to date.
const REFRESH: Duration = Duration::from_millis(100);
/// What the bar looks like: `[=====>     ] 12/79 files  1.2 MiB/2.5 MiB  8.0 MiB/s  ETA 1s`.
const TEMPLATE: &str =
    "[{wide_bar}] {files} files  {bytes}/{total_bytes}  {bytes_per_sec}  ETA {eta}";

/// The bar on the terminal, while it is shown. Every draw of it, and every other write to
/// the terminal during a run, is made holding this lock: none cuts into another.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);
/// Set for good once rows that do not end their lines went to the terminal.
static BARRED: AtomicBool = AtomicBool::new(false);

/// The delay `ROLLSCOPE_PROGRESS_DELAY` sets (milliseconds; the default for anything else).
fn delay_of(value: Option<&str>) -> Duration {
    value
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_millis)
        .unwrap_or(DEFAULT_DELAY)
}

/// The progress of one pass over the inputs: a bar on stderr, or nothing.
pub struct Progress {
    run: Option<Run>,
}

struct Run {
    done: Arc<AtomicU64>,
    /// Dropped to stop the drawing thread.
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// No bar.
    pub fn off() -> Progress {
        Progress { run: None }
    }

    /// May a bar be shown at all? Stderr a terminal that can draw one, not `quiet`, not
    /// turned off. (Cheap: decide this before gathering what [`Progress::start`] takes.)
    pub fn wanted(quiet: bool) -> bool {
        !quiet
            && std::env::var_os(MODE_ENV).is_none_or(|v| v != "never")
            && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            && std::io::stderr().is_terminal()
    }

    /// The bar of a pass over `files` files, shown once the delay has passed. `sizes` gives
    /// each file's size in bytes, in the order the files are done; it is called on the
    /// drawing thread (it may take a `stat` a file), unless the bar is shown at once.
    /// Nothing when not [`Progress::wanted`].
    pub fn start(
        quiet: bool,
        files: usize,
        sizes: impl FnOnce() -> Vec<u64> + Send + 'static,
    ) -> Progress {
        if !Progress::wanted(quiet) {
            return Progress::off();
        }
        let delay = delay_of(std::env::var(DELAY_ENV).ok().as_deref());
        // (A delay past what a clock can count is never reached.)
        let deadline = Instant::now().checked_add(delay);
        let done = Arc::new(AtomicU64::new(0));
        let (stop, stopped) = mpsc::channel::<()>();
        // Made now, hidden, so that its rate and time left count from the pass's start.
        let mut bar = Bar::new(files as u64, done.clone());
        let sizes = if delay.is_zero() {
            // Drawn before the first file is read, however short the run.
            bar.sized(sizes());
            bar.show();
            None
        } else {
            Some(sizes)
        };
        let thread = std::thread::Builder::new()
            .name("rollscope-progress".into())
            .spawn(move || {
                if let Some(sizes) = sizes {
                    bar.sized(sizes());
                }
                bar.run(&stopped, deadline);
            });
        match thread {
            Ok(thread) => Progress {
                run: Some(Run {
                    done,
                    stop: Some(stop),
                    thread: Some(thread),
                }),
            },
            // No thread to be had: no bar.
            Err(_) => {
                take_down();
                Progress::off()
            }
        }
    }

    /// One more file done: read, and handed on for its rows and notes.
    #[inline]
    pub fn file_done(&self) {
        if let Some(run) = &self.run {
            run.done.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// End the pass: the bar, if shown, is cleared from the terminal.
    pub fn finish(self) {}
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(run) = &mut self.run {
            drop(run.stop.take());
            if let Some(t) = run.thread.take() {
                let _ = t.join();
            }
        }
    }
}

/// The drawing thread's side.
struct Bar {
    done: Arc<AtomicU64>,
    /// The files' sizes, and how many of them are counted in `bytes`.
    sizes: Vec<u64>,
    counted: usize,
    bytes: u64,
    bar: ProgressBar,
    /// On the terminal (or taken down for good since).
    visible: bool,
}

impl Bar {
    fn new(files: u64, done: Arc<AtomicU64>) -> Bar {
        // Files done of the total, read as the bar is drawn.
        let count = done.clone();
        let files_done = move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}/{files}", count.load(Ordering::Relaxed));
        };
        #[allow(
            clippy::expect_used,
            reason = "`TEMPLATE` is a constant; `the_template_is_valid` holds it so"
        )]
        let style = ProgressStyle::with_template(TEMPLATE)
            .expect("the template is valid")
            .with_key("files", files_done)
            .progress_chars("=> ");
        let bar =
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden()).with_style(style);
        Bar {
            done,
            sizes: Vec::new(),
            counted: 0,
            bytes: 0,
            bar,
            visible: false,
        }
    }

    /// The files' sizes are known: their sum is the bar's length.
    fn sized(&mut self, sizes: Vec<u64>) {
        self.bar.set_length(sizes.iter().sum());
        self.sizes = sizes;
    }

    /// Put the bar on the terminal (unless rows that do not end their lines went there).
    fn show(&mut self) {
        let mut shown = shown();
        if BARRED.load(Ordering::Relaxed) {
            return;
        }
        self.bar.set_draw_target(ProgressDrawTarget::stderr());
        *shown = Some(self.bar.clone());
        self.visible = true;
        drop(shown);
        self.update();
    }

    /// Bring the bar up to date with the files done.
    fn update(&mut self) {
        let done = self.done.load(Ordering::Relaxed);
        let upto = (done as usize).min(self.sizes.len());
        if upto > self.counted {
            self.bytes += self.sizes.iter().take(upto).skip(self.counted).sum::<u64>();
            self.counted = upto;
        }
        // Drawn holding the lock; a bar taken down early (see `rows`) is not drawn again.
        let shown = shown();
        if self.visible && shown.is_none() {
            return;
        }
        self.bar.set_position(self.bytes);
    }

    /// Update the bar every [`REFRESH`], shown from `deadline` on, until the pass ends;
    /// then clear it.
    fn run(mut self, stopped: &mpsc::Receiver<()>, deadline: Option<Instant>) {
        loop {
            let mut wait = REFRESH;
            if let (false, Some(deadline)) = (self.visible, deadline) {
                let now = Instant::now();
                if now >= deadline {
                    self.show();
                } else {
                    wait = wait.min(deadline - now);
                }
            }
            if stopped.recv_timeout(wait) != Err(RecvTimeoutError::Timeout) {
                break;
            }
            self.update();
        }
        take_down();
    }
}

fn shown() -> std::sync::MutexGuard<'static, Option<ProgressBar>> {
    SHOWN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Clear the bar from the terminal, for good.
fn take_down() {
    // Under the lock: a write waiting for it comes after the bar is gone.
    let mut shown = shown();
    if let Some(bar) = shown.take() {
        bar.finish_and_clear();
    }
}

/// Run `write` (a write to the terminal) with the bar out of the way: cleared before,
/// drawn again after. Just `write` when no bar is shown.
pub fn suspend<R>(write: impl FnOnce() -> R) -> R {
    let shown = shown();
    match shown.as_ref() {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// Rows written to stdout now (not a table, printed at the end): when stdout is the
/// terminal the bar is drawn on, they make room for it, as [`suspend`]. `whole_lines`
/// says the rows end their lines; a row that does not (a JSON array's) would be cut by
/// the bar drawn after it, so the bar is taken down (or never shown) for the rest of the run
/// instead.
pub fn rows<R>(whole_lines: bool, write: impl FnOnce() -> R) -> R {
    // A pipe or a file: no bar in the way, and no lock a row.
    if !stdout_is_terminal() {
        return write();
    }
    if whole_lines {
        return suspend(write);
    }
    BARRED.store(true, Ordering::Relaxed);
    take_down();
    write()
}

/// Whether stdout is a terminal (asked once).
pub fn stdout_is_terminal() -> bool {
    static IS: OnceLock<bool> = OnceLock::new();
    *IS.get_or_init(|| std::io::stdout().is_terminal())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_is_valid() {
        assert!(ProgressStyle::with_template(TEMPLATE).is_ok());
    }

    #[test]
    fn the_delay_is_in_milliseconds_and_defaults_to_a_second() {
        assert_eq!(delay_of(Some("0")), Duration::ZERO);
        assert_eq!(delay_of(Some("250")), Duration::from_millis(250));
        assert_eq!(delay_of(Some(" 40 ")), Duration::from_millis(40));
        assert_eq!(delay_of(None), DEFAULT_DELAY);
        assert_eq!(delay_of(Some("soon")), DEFAULT_DELAY);
        assert_eq!(delay_of(Some("-1")), DEFAULT_DELAY);
    }

    #[test]
    fn a_bar_that_is_off_counts_nothing_and_ends_quietly() {
        let p = Progress::off();
        p.file_done();
        p.finish();
        assert!(shown().is_none());
    }
}
