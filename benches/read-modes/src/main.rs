//! read-modes: does reading rollouts through memory maps beat `read(2)` into a buffer,
//! and can a map be made safe against truncation? (rollscope issue "below the copy limit")
//!
//! ```text
//! read-modes bench MODE THREADS PATH...   one timed pass, one TSV line on stdout
//! read-modes sigbus [--slow]              truncation scenarios, each in a child process
//! ```
//!
//! MODE: `read` (256 KiB reused buffer), `mmap` (plain `Mmap::map`), `populate`
//! (`MmapOptions::populate`, MAP_POPULATE), `mmap-seq` (plain map + MADV_SEQUENTIAL, as
//! ripgrep does), `hybrid-1m` / `hybrid-16m` (read below the threshold, plain map at or
//! above it). Every mode counts newlines with memchr, so every byte is touched.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::io::AsRawFd;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use memmap2::{Advice, Mmap, MmapOptions};

/// The buffer rollscope reads into (`src/input/open.rs` READ_BUF, `src/decode/reader.rs`
/// READ_CHUNK).
const READ_BUF: usize = 256 * 1024;

#[derive(Clone, Copy, Debug)]
enum Mode {
    Read,
    Mmap,
    Populate,
    MmapSeq,
    /// Read below this many bytes, map at or above.
    Hybrid(u64),
}

impl Mode {
    fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "read" => Mode::Read,
            "mmap" => Mode::Mmap,
            "populate" => Mode::Populate,
            "mmap-seq" => Mode::MmapSeq,
            _ => {
                let t = s.strip_prefix("hybrid-")?;
                let (num, mult) = if let Some(n) = t.strip_suffix('m') {
                    (n, 1 << 20)
                } else if let Some(n) = t.strip_suffix('k') {
                    (n, 1 << 10)
                } else {
                    (t, 1)
                };
                Mode::Hybrid(num.parse::<u64>().ok()? * mult)
            }
        })
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = match args.get(1).map(String::as_str) {
        Some("bench") if args.len() >= 5 => bench(&args[2], &args[3], &args[4..]),
        Some("sigbus") => sigbus(args.iter().any(|a| a == "--slow")),
        Some("sigbus-child") if args.len() == 4 => sigbus_child(&args[2], Path::new(&args[3])),
        _ => {
            eprintln!(
                "usage: read-modes bench MODE THREADS PATH...\n       read-modes sigbus [--slow]\n\
                 MODE: read | mmap | populate | mmap-seq | hybrid-<N>[k|m]"
            );
            2
        }
    };
    std::process::exit(code);
}

// ---------------------------------------------------------------------------------------
// bench

fn walk(p: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let md = fs::symlink_metadata(p)?;
    if md.is_file() {
        out.push(p.to_path_buf());
    } else if md.is_dir() {
        let mut entries: Vec<PathBuf> = fs::read_dir(p)?
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<_>>()?;
        entries.sort();
        for e in entries {
            walk(&e, out)?;
        }
    }
    Ok(())
}

#[derive(Default, Clone, Copy)]
struct Tally {
    files: u64,
    bytes: u64,
    newlines: u64,
    mapped: u64,
    errors: u64,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.files += o.files;
        self.bytes += o.bytes;
        self.newlines += o.newlines;
        self.mapped += o.mapped;
        self.errors += o.errors;
    }
}

fn count(hay: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', hay).count() as u64
}

fn by_read(file: &mut File, buf: &mut [u8], t: &mut Tally) -> io::Result<()> {
    loop {
        match file.read(buf) {
            Ok(0) => return Ok(()),
            Ok(n) => {
                t.bytes += n as u64;
                t.newlines += count(&buf[..n]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn by_map(file: &File, opts: &MmapOptions, seq: bool, t: &mut Tally) -> io::Result<()> {
    // SAFETY: not safe in general -- that is the question of this experiment. The bench
    // tree is read-only input that nothing truncates while we run.
    let map = unsafe { opts.map(file)? };
    if seq {
        map.advise(Advice::Sequential)?;
    }
    t.bytes += map.len() as u64;
    t.newlines += count(&map);
    t.mapped += 1;
    Ok(())
}

fn one(path: &Path, mode: Mode, buf: &mut [u8], t: &mut Tally) -> io::Result<()> {
    let mut file = File::open(path)?;
    t.files += 1;
    match mode {
        Mode::Read => by_read(&mut file, buf, t),
        Mode::Mmap => by_map(&file, &MmapOptions::new(), false, t),
        Mode::MmapSeq => by_map(&file, &MmapOptions::new(), true, t),
        Mode::Populate => by_map(&file, MmapOptions::new().populate(), false, t),
        Mode::Hybrid(limit) => {
            if file.metadata()?.len() < limit {
                by_read(&mut file, buf, t)
            } else {
                by_map(&file, &MmapOptions::new(), false, t)
            }
        }
    }
}

fn rusage() -> libc::rusage {
    // SAFETY: getrusage writes a plain struct.
    unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        ru
    }
}

fn secs(tv: libc::timeval) -> f64 {
    tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6
}

fn bench(mode_s: &str, threads_s: &str, paths: &[String]) -> i32 {
    let Some(mode) = Mode::parse(mode_s) else {
        eprintln!("unknown mode {mode_s}");
        return 2;
    };
    let threads: usize = match threads_s.parse() {
        Ok(n) if n >= 1 => n,
        _ => {
            eprintln!("bad thread count {threads_s}");
            return 2;
        }
    };
    let mut files = Vec::new();
    for p in paths {
        if let Err(e) = walk(Path::new(p), &mut files) {
            eprintln!("{p}: {e}");
            return 1;
        }
    }

    // Only the pass over the files is timed, not the walk.
    let next = AtomicUsize::new(0);
    let r0 = rusage();
    let t0 = Instant::now();
    let total = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut buf = vec![0u8; READ_BUF];
                    let mut t = Tally::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = files.get(i) else { break };
                        if let Err(e) = one(path, mode, &mut buf, &mut t) {
                            eprintln!("{}: {e}", path.display());
                            t.errors += 1;
                        }
                    }
                    t
                })
            })
            .collect();
        let mut total = Tally::default();
        for w in workers {
            total.add(w.join().unwrap());
        }
        total
    });
    let wall = t0.elapsed().as_secs_f64();
    let r1 = rusage();

    // mode threads files bytes newlines mapped errors wall user sys minflt majflt maxrss_kib
    println!(
        "{mode_s}\t{threads}\t{}\t{}\t{}\t{}\t{}\t{wall:.4}\t{:.4}\t{:.4}\t{}\t{}\t{}",
        total.files,
        total.bytes,
        total.newlines,
        total.mapped,
        total.errors,
        secs(r1.ru_utime) - secs(r0.ru_utime),
        secs(r1.ru_stime) - secs(r0.ru_stime),
        r1.ru_minflt - r0.ru_minflt,
        r1.ru_majflt - r0.ru_majflt,
        r1.ru_maxrss,
    );
    if total.errors > 0 {
        1
    } else {
        0
    }
}

// ---------------------------------------------------------------------------------------
// sigbus

/// Size of the scratch file: 8 MiB, many pages either side of the halfway cut.
const SCRATCH: u64 = 8 << 20;

fn scratch_file(dir: &Path, name: &str) -> io::Result<PathBuf> {
    let path = dir.join(name);
    let mut f = File::create(&path)?;
    let line = [
        b"{\"type\":\"event_msg\",\"payload\":{\"text\":\"".as_slice(),
        &[b'x'; 200],
        b"\"}}\n",
    ]
    .concat();
    let mut written = 0u64;
    let mut block = Vec::with_capacity(1 << 20);
    while written < SCRATCH {
        block.clear();
        while block.len() + line.len() <= (1 << 20)
            && written + (block.len() + line.len()) as u64 <= SCRATCH
        {
            block.extend_from_slice(&line);
        }
        if block.is_empty() {
            block.resize((SCRATCH - written) as usize, b' ');
        }
        f.write_all(&block)?;
        written += block.len() as u64;
    }
    f.sync_all()?;
    Ok(path)
}

fn describe(st: ExitStatus) -> String {
    match (st.code(), st.signal()) {
        (Some(c), _) => format!("exited with code {c}"),
        (None, Some(sig)) => {
            let name = match sig {
                libc::SIGBUS => "SIGBUS",
                libc::SIGSEGV => "SIGSEGV",
                libc::SIGIO => "SIGIO",
                libc::SIGKILL => "SIGKILL",
                libc::SIGABRT => "SIGABRT",
                _ => "?",
            };
            format!(
                "killed by signal {sig} ({name}){}",
                if st.core_dumped() {
                    ", core dumped"
                } else {
                    ""
                }
            )
        }
        _ => format!("{st:?}"),
    }
}

struct Child {
    proc: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
    inp: std::process::ChildStdin,
}

impl Child {
    fn spawn(scenario: &str, path: &Path) -> io::Result<Child> {
        let mut proc = Command::new(std::env::current_exe()?)
            .args(["sigbus-child", scenario])
            .arg(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let out = BufReader::new(proc.stdout.take().unwrap());
        let inp = proc.stdin.take().unwrap();
        Ok(Child { proc, out, inp })
    }

    /// Relay the child's lines until it says `ready` (or ends).
    fn wait_ready(&mut self) -> io::Result<bool> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.out.read_line(&mut line)? == 0 {
                return Ok(false);
            }
            if line.trim_end() == "ready" {
                return Ok(true);
            }
            print!("    child: {line}");
        }
    }

    /// Tell the child to go on; a child that died already (the pipe is closed) is
    /// reported by `finish`.
    fn go(&mut self) -> io::Result<()> {
        match self.inp.write_all(b"go\n").and_then(|()| self.inp.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            r => r,
        }
    }

    fn finish(mut self) -> io::Result<ExitStatus> {
        let mut rest = String::new();
        // The pipe may be closed already if the child died.
        let _ = self.inp.write_all(b"go\n");
        drop(self.inp);
        self.out.read_to_string(&mut rest)?;
        for l in rest.lines() {
            println!("    child: {l}");
        }
        self.proc.wait()
    }
}

fn truncate_half(path: &Path) -> io::Result<()> {
    OpenOptions::new()
        .write(true)
        .open(path)?
        .set_len(SCRATCH / 2)
}

fn sigbus(slow: bool) -> i32 {
    match sigbus_run(slow) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("sigbus: {e}");
            1
        }
    }
}

fn sigbus_run(slow: bool) -> io::Result<()> {
    let dir = std::env::temp_dir().join(format!("read-modes-sigbus-{}", std::process::id()));
    fs::create_dir_all(&dir)?;
    let lease_break = fs::read_to_string("/proc/sys/fs/lease-break-time")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "?".into());
    println!(
        "scratch files: {} MiB each, cut to half; lease-break-time = {lease_break} s",
        SCRATCH >> 20
    );

    // 1-3: the same process maps, truncates, touches the tail.
    for (scenario, what) in [
        ("self-mmap", "Mmap::map, same process truncates, touch tail"),
        (
            "self-populate",
            "MmapOptions::populate (MAP_POPULATE), same process truncates, touch tail",
        ),
        (
            "self-private",
            "map_copy_read_only (MAP_PRIVATE), same process truncates, touch tail",
        ),
    ] {
        let path = scratch_file(&dir, scenario)?;
        println!("[{scenario}] {what}");
        let child = Child::spawn(scenario, &path)?;
        println!("  -> child {}", describe(child.finish()?));
    }

    // 4: another process truncates a map the child holds.
    {
        let scenario = "other-mmap";
        let path = scratch_file(&dir, scenario)?;
        println!("[{scenario}] Mmap::map in the child, the parent (another process) truncates, child touches tail");
        let mut child = Child::spawn(scenario, &path)?;
        if child.wait_ready()? {
            truncate_half(&path)?;
            child.go()?;
        }
        println!("  -> child {}", describe(child.finish()?));
    }

    // 5: control, read(2) under the same truncation.
    {
        let scenario = "other-read";
        let path = scratch_file(&dir, scenario)?;
        println!("[{scenario}] control: read(2) in 256 KiB chunks, the parent truncates after the first 1 MiB");
        let mut child = Child::spawn(scenario, &path)?;
        if child.wait_ready()? {
            truncate_half(&path)?;
            child.go()?;
        }
        println!("  -> child {}", describe(child.finish()?));
    }

    // 6: memmap2's one safe constructor on a plain file.
    {
        let scenario = "map-if-safe";
        let path = scratch_file(&dir, scenario)?;
        println!(
            "[{scenario}] memmap2 0.9.12 MmapOptions::map_if_safe on an ordinary rollout-like file"
        );
        let child = Child::spawn(scenario, &path)?;
        println!("  -> child {}", describe(child.finish()?));
    }

    // 7: advisory locks: flock(LOCK_SH) and a POSIX read lock over the whole file.
    {
        let scenario = "lock-held";
        let path = scratch_file(&dir, scenario)?;
        println!("[{scenario}] flock(LOCK_SH) + fcntl F_SETLK F_RDLCK held by the child; the parent truncates");
        let mut child = Child::spawn(scenario, &path)?;
        if child.wait_ready()? {
            truncate_half(&path)?;
            println!("  -> parent's truncate returned at once");
            child.go()?;
        }
        println!("  -> child {}", describe(child.finish()?));
    }

    // 8: a read lease while a writer holds the file open (a live Codex session appends).
    {
        let scenario = "lease-try";
        let path = scratch_file(&dir, scenario)?;
        println!("[lease-writer-open] F_SETLEASE(F_RDLCK) while another process holds the file open for writing");
        let writer = OpenOptions::new().append(true).open(&path)?;
        let child = Child::spawn(scenario, &path)?;
        println!("  -> child {}", describe(child.finish()?));
        drop(writer);
    }

    // 9-11: a read lease with no writer: the truncate blocks until the lease goes.
    let mut lease_cases = vec![
        (
            "lease-held",
            "read lease, SIGIO ignored; parent truncates; child touches tail then drops the lease",
        ),
        (
            "lease-default-sigio",
            "read lease, SIGIO left at its default action; parent truncates",
        ),
    ];
    if slow {
        lease_cases.push((
            "lease-expire",
            "read lease, SIGIO ignored; parent truncates; child touches tail only after lease-break-time",
        ));
    }
    for (scenario, what) in lease_cases {
        let path = scratch_file(&dir, scenario)?;
        println!("[{scenario}] {what}");
        let mut child = Child::spawn(scenario, &path)?;
        if child.wait_ready()? {
            let p = path.clone();
            let t0 = Instant::now();
            let truncator = std::thread::spawn(move || {
                let r = truncate_half(&p);
                (r, t0.elapsed())
            });
            std::thread::sleep(Duration::from_millis(300));
            child.go()?;
            let status = child.finish()?;
            let (r, took) = truncator.join().unwrap();
            println!(
                "  -> parent's truncate {} after {:.2} s",
                match r {
                    Ok(()) => "returned".to_string(),
                    Err(e) => format!("failed ({e})"),
                },
                took.as_secs_f64()
            );
            println!("  -> child {}", describe(status));
        } else {
            println!("  -> child {}", describe(child.finish()?));
        }
    }

    fs::remove_dir_all(&dir)?;
    Ok(())
}

fn wait_go() {
    let mut line = String::new();
    let _ = io::stdin().read_line(&mut line);
}

fn say(s: &str) {
    let mut o = io::stdout().lock();
    let _ = writeln!(o, "{s}");
    let _ = o.flush();
}

fn set_lease(file: &File, kind: libc::c_int) -> io::Result<()> {
    // SAFETY: fcntl on an owned descriptor.
    if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, kind) } == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn touch_tail(map: &[u8]) {
    say(&format!(
        "touching bytes {}..{} of the map",
        SCRATCH / 2,
        map.len()
    ));
    let n = count(&map[(SCRATCH / 2) as usize..]);
    say(&format!("tail read without a fault: {n} newlines"));
}

fn sigbus_child(scenario: &str, path: &Path) -> i32 {
    match sigbus_child_run(scenario, path) {
        Ok(()) => 0,
        Err(e) => {
            say(&format!(
                "error: {e} (kind {:?}, os error {:?})",
                e.kind(),
                e.raw_os_error()
            ));
            3
        }
    }
}

fn sigbus_child_run(scenario: &str, path: &Path) -> io::Result<()> {
    let file = File::open(path)?;
    match scenario {
        "self-mmap" | "self-populate" | "self-private" => {
            // SAFETY: deliberately unsound use: this child exists to be killed.
            let map: Mmap = unsafe {
                match scenario {
                    "self-mmap" => Mmap::map(&file)?,
                    "self-populate" => MmapOptions::new().populate().map(&file)?,
                    _ => MmapOptions::new().map_copy_read_only(&file)?,
                }
            };
            say(&format!(
                "mapped {} bytes, head has {} newlines",
                map.len(),
                count(&map[..4096])
            ));
            truncate_half(path)?;
            say(&format!("truncated to {} bytes", fs::metadata(path)?.len()));
            touch_tail(&map);
        }
        "other-mmap" => {
            // SAFETY: as above.
            let map = unsafe { Mmap::map(&file)? };
            say(&format!(
                "mapped {} bytes, read it all once: {} newlines",
                map.len(),
                count(&map)
            ));
            say("ready");
            wait_go();
            say(&format!("file is now {} bytes", fs::metadata(path)?.len()));
            touch_tail(&map);
        }
        "other-read" => {
            let mut file = file;
            let mut buf = vec![0u8; READ_BUF];
            let mut total = 0u64;
            while total < (1 << 20) {
                let n = file.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                total += n as u64;
            }
            say(&format!("read {total} bytes"));
            say("ready");
            wait_go();
            loop {
                let n = file.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                total += n as u64;
            }
            say(&format!(
                "read(2) reached EOF after {total} bytes in all: a short file, no fault"
            ));
        }
        "map-if-safe" => match MmapOptions::new().map_if_safe(&file) {
            Ok(map) => say(&format!("map_if_safe mapped {} bytes", map.len())),
            Err(e) => say(&format!(
                "map_if_safe refused: {e} (not_safe={}, not_supported={})",
                e.not_safe(),
                e.not_supported()
            )),
        },
        "lock-held" => {
            // SAFETY: flock and fcntl on an owned descriptor; the lock struct is plain data.
            unsafe {
                if libc::flock(file.as_raw_fd(), libc::LOCK_SH) == -1 {
                    return Err(io::Error::last_os_error());
                }
                let mut fl: libc::flock = std::mem::zeroed();
                fl.l_type = libc::F_RDLCK as libc::c_short;
                fl.l_whence = libc::SEEK_SET as libc::c_short;
                fl.l_start = 0;
                fl.l_len = 0; // to the end, however far it grows
                if libc::fcntl(file.as_raw_fd(), libc::F_SETLK, &fl) == -1 {
                    return Err(io::Error::last_os_error());
                }
            }
            say("flock(LOCK_SH) and F_SETLK F_RDLCK held");
            // SAFETY: as above; the locks are what this scenario tests.
            let map = unsafe { Mmap::map(&file)? };
            say(&format!("mapped {} bytes", map.len()));
            say("ready");
            wait_go();
            say(&format!("file is now {} bytes", fs::metadata(path)?.len()));
            touch_tail(&map);
        }
        "lease-try" => match set_lease(&file, libc::F_RDLCK) {
            Ok(()) => say("F_SETLEASE F_RDLCK granted"),
            Err(e) => say(&format!("F_SETLEASE F_RDLCK refused: {e}")),
        },
        "lease-held" | "lease-default-sigio" | "lease-expire" => {
            if scenario != "lease-default-sigio" {
                // SAFETY: setting a disposition to SIG_IGN.
                unsafe { libc::signal(libc::SIGIO, libc::SIG_IGN) };
            }
            set_lease(&file, libc::F_RDLCK)?;
            say("F_SETLEASE F_RDLCK granted");
            // SAFETY: the lease is what this scenario tests.
            let map = unsafe { Mmap::map(&file)? };
            say(&format!("mapped {} bytes", map.len()));
            say("ready");
            wait_go();
            if scenario == "lease-expire" {
                let secs: u64 = fs::read_to_string("/proc/sys/fs/lease-break-time")
                    .ok()
                    .and_then(|s| s.trim().parse().ok())
                    .unwrap_or(45);
                say(&format!(
                    "holding the lease, not touching the map, for {} s",
                    secs + 3
                ));
                std::thread::sleep(Duration::from_secs(secs + 3));
            }
            say(&format!("file is now {} bytes", fs::metadata(path)?.len()));
            touch_tail(&map);
            set_lease(&file, libc::F_UNLCK)?;
            say("lease released");
        }
        _ => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "unknown scenario",
            ))
        }
    }
    Ok(())
}
