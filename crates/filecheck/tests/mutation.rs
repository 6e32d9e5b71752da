//! A mutation campaign: check files, inputs and flags derived from working
//! seeds by random edits (bytes, FileCheck syntax fragments, deleted and
//! repeated lines), each run must end with status 0, 1 or 2 and no panic.
//!
//! Deterministic (fixed seed). `FILECHECK_MUTATIONS=N` runs N cases instead
//! of the default few hundred; `FILECHECK_REFERENCE=FileCheck-14` also runs
//! that tool on every case and fails on a different exit status (a larger
//! differential campaign, run by hand: see the report of issue #16).

use std::io::Write;
use std::process::{Command, Stdio};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: enough spread for picking edits.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

const SEEDS: &[(&str, &str)] = &[
    (
        "CHECK-LABEL: func @f\nCHECK: %[[V:[0-9]+]] = add\nCHECK-NEXT: use %[[V]]\nCHECK-NOT: bad\nCHECK: end\n",
        "func @f\n%1 = add\nuse %1\nend\n",
    ),
    (
        "CHECK-DAG: b [[#N:]]\nCHECK-DAG: a [[#N+1]]\nCHECK-SAME: {{x|y}}\nCHECK-EMPTY:\nCHECK-COUNT-2: z\n",
        "a 8 x\n\nb 7\nz\nz\n",
    ),
    (
        "CHECK: [[#%x,ADDR:]] {{[a-f]+}}\nCHECK: [[#ADDR + 0x10]]\nCHECK{LITERAL}: {{raw}}\nCHECK: [[@LINE-3]]\n",
        "ff abc\n10f\n{{raw}}\n1\n",
    ),
    (
        "ALT: one\nCHECK: two\nCHECK-NOT: {{^three$}}\nALT-NEXT: [[W:[a-z]+]] [[W]]\n",
        "one\nfoo foo\ntwo\n",
    ),
];

const FRAGMENTS: &[&str] = &[
    "{{",
    "}}",
    "[[",
    "]]",
    "[[#",
    "[[#%",
    "CHECK:",
    "CHECK-DAG:",
    "CHECK-NOT:",
    "CHECK-NEXT:",
    "CHECK-SAME:",
    "CHECK-EMPTY:",
    "CHECK-LABEL:",
    "CHECK-COUNT-3:",
    "CHECK{LITERAL}:",
    "[[X:",
    "[[#X:",
    "[[X]]",
    "[[#X+1]]",
    "%d,",
    "%.3x,",
    "0x",
    "{{.*}}",
    "{{(a)\\1}}",
    "\\",
    "(",
    ")",
    "[[@LINE]]",
    "[[#@LINE+1]]",
    "$",
    "^",
    "\n",
    "\r\n",
    "\t",
    "  ",
    "*",
    "+",
    "?",
    "|",
    "-",
    "[[X:a[]-9]+]]",
    "{{[[:alpha:]]}}",
    "{{a{2,1}}}",
    "{{x{99999}}}",
    "[[#max(1,2)]]",
    "[[#N:]] [[#N]]",
    "COM:",
    "RUN:",
    "\u{0}",
    "\u{ff}",
    "é",
];

const BYTES: &[u8] = b"{}[]#%:@$\\|*+?.^()-,=0123456789abcxyzCHECK \n\t\r\x00\xff";

fn mutate(rng: &mut Rng, text: &[u8]) -> Vec<u8> {
    let mut t = text.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(t.len() + 1);
        match rng.below(6) {
            0 if !t.is_empty() => {
                let i = rng.below(t.len());
                t[i] = *rng.pick(BYTES);
            }
            1 | 2 => {
                let f = rng.pick(FRAGMENTS).as_bytes();
                t.splice(at..at, f.iter().copied());
            }
            3 => {
                let end = (at + rng.below(8)).min(t.len());
                t.drain(at..end);
            }
            4 => {
                // Repeat a line (many directives alike: DAG/NOT overlaps).
                let lines: Vec<&[u8]> = t.split(|&c| c == b'\n').collect();
                let l = rng.pick(&lines).to_vec();
                let mut rep = Vec::new();
                for _ in 0..1 + rng.below(4) {
                    rep.extend_from_slice(&l);
                    rep.push(b'\n');
                }
                let pos = t[..at]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |p| p + 1);
                t.splice(pos..pos, rep);
            }
            _ => t.truncate(at),
        }
    }
    t
}

const FLAGS: &[&str] = &[
    "--strict-whitespace",
    "--match-full-lines",
    "--ignore-case",
    "--implicit-check-not=bad",
    "--implicit-check-not={{[0-9]}}",
    "--enable-var-scope",
    "-DX=val",
    "-D#N=3",
    "--allow-empty",
    "--dump-input=always",
    "--dump-input=never",
    "-v",
    "-vv",
    "--allow-deprecated-dag-overlap",
    "--check-prefixes=CHECK,ALT",
    "--allow-unused-prefixes",
    "--dump-input-filter=all",
    "--dump-input-context=0",
];

struct Case {
    check: Vec<u8>,
    input: Vec<u8>,
    flags: Vec<&'static str>,
}

fn cases(n: usize) -> impl Iterator<Item = Case> {
    let mut rng = Rng(0x5eed_f11e_c4ec_0001);
    (0..n).map(move |_| {
        let (c, i) = *rng.pick(SEEDS);
        let check = mutate(&mut rng, c.as_bytes());
        let input = if rng.below(3) == 0 {
            mutate(&mut rng, i.as_bytes())
        } else {
            i.as_bytes().to_vec()
        };
        let flags = (0..rng.below(3)).map(|_| *rng.pick(FLAGS)).collect();
        Case {
            check,
            input,
            flags,
        }
    })
}

#[test]
fn mutated_check_files_end_with_a_status() {
    let n = std::env::var("FILECHECK_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let reference = std::env::var("FILECHECK_REFERENCE").ok();
    let dir = std::env::temp_dir().join(format!("fc-mutation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chk = dir.join("check.txt");
    let (mut codes, mut differ) = ([0usize; 3], Vec::new());
    for (k, case) in cases(n).enumerate() {
        std::fs::write(&chk, &case.check).unwrap();
        let mut args: Vec<String> = case.flags.iter().map(|s| s.to_string()).collect();
        args.push(chk.display().to_string());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            mlir_async_filecheck::run(&args, None, &mut &case.input[..], &mut out, &mut err)
        }));
        let code = match run {
            Ok(c) => c,
            Err(_) => panic!(
                "case {k} panicked: flags {:?}\ncheck: {:?}\ninput: {:?}",
                case.flags,
                String::from_utf8_lossy(&case.check),
                String::from_utf8_lossy(&case.input)
            ),
        };
        assert!((0..=2).contains(&code), "case {k}: status {code}");
        codes[code as usize] += 1;
        if let Some(tool) = &reference {
            let mut child = Command::new(tool)
                .args(&args)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let _ = child.stdin.take().unwrap().write_all(&case.input);
            let o = child.wait_with_output().unwrap();
            let theirs = o.status.code();
            // With FILECHECK_COMPARE_STDERR set, the diagnostics too (the
            // tool's name aside).
            let same_text = std::env::var_os("FILECHECK_COMPARE_STDERR").is_none()
                || String::from_utf8_lossy(&o.stderr).replace(tool.as_str(), "FileCheck")
                    == String::from_utf8_lossy(&err);
            if theirs != Some(code) || !same_text {
                let keep = dir.join(format!("differs-{k}.txt"));
                std::fs::write(&keep, &case.check).unwrap();
                std::fs::write(dir.join(format!("differs-{k}.in")), &case.input).unwrap();
                differ.push(format!(
                    "case {k}: ours {code}, {tool} {theirs:?}, flags {:?}, {}",
                    case.flags,
                    keep.display()
                ));
            }
        }
    }
    println!(
        "{n} cases: status 0: {}, 1: {}, 2: {}",
        codes[0], codes[1], codes[2]
    );
    // Every status is reached: the campaign exercises more than the parser.
    assert!(codes.iter().all(|&c| c > 0), "{codes:?}");
    assert!(
        differ.is_empty(),
        "{} of {n} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    if reference.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
