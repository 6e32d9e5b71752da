//! The mutator of the campaign: seeded edits of MLIR text, on bytes (the
//! tools read bytes; invalid UTF-8 is valid in comments and strings).
//! Shared by `crates/dialects/tests/mutations.rs` (parse, verify, print)
//! and `crates/tools/tests/mutation_pipeline.rs` (passes and the
//! executor), which includes this file by path.
#![allow(dead_code)]

/// xorshift64*: small, fast, and the same everywhere.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

pub const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ",",
    ":",
    "=",
    "->",
    "-",
    "%",
    "%0",
    "%x#5",
    "%0:3",
    "^bb1",
    "^bb0(%a: i32):",
    "@f",
    "@\"q\"",
    "!async.token",
    "!async.value<",
    "!async.group",
    "!x.y<",
    "i32",
    "index",
    "f32",
    "memref<?x",
    "tensor<*x",
    "vector<4x",
    "#map",
    "#map0 = ",
    "affine_map<(d0) -> (d0)>",
    "\"",
    "\"\\",
    "loc(",
    "loc(#loc1)",
    "loc(\"f\":1:2)",
    "loc(fused[",
    "dense<",
    "dense<[1, 2]> : vector<3xi32>",
    "0x",
    "0x7FF",
    "1e999",
    "-0.",
    "99999999999999999999999999999999999999999",
    "true",
    "unit",
    "attributes",
    "{a}",
    "async.execute",
    "async.await",
    "async.yield",
    "scf.yield",
    "scf.for",
    "scf.if",
    "func.func @g() {",
    "return",
    "cf.br ^bb1",
    "cond_br",
    "arith.constant",
    "\"std.br\"()",
    "({",
    "})",
    "linalg.generic",
    "ins(",
    "outs(",
    "iter_args(",
    "// -----",
    "//",
    "\n",
    " ",
    "\u{e9}",
    "\u{1F600}",
    "\t",
    "builtin.module",
    "module {",
    "unrealized_conversion_cast",
    // Newer classes: line ends, bytes outside UTF-8, huge literals, the
    // ops added for issue #16.
    "\r",
    "// c\r",
    "\0",
    "\"a\0b\"",
    "123456789012345678901234567890123456789012345678901234567890",
    "-170141183460469231731687303715884105729",
    "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
    " : i1024",
    " : i130",
    "dense<\"0x0100000002000000\">",
    "dense<\"0xFF\"> : vector<9xi1>",
    "dense<\"0x",
    "cf.switch %a : i32, [default: ^bb1, 1: ^bb2]",
    "default: ",
    "memref.atomic_rmw addf",
    "memref.generic_atomic_rmw",
    "memref.atomic_yield",
    "memref.global \"private\" constant @g : memref<2xf32> = dense<1.0>",
    "memref.get_global @g : memref<2xf32>",
    "memref.alloca_scope",
    "memref.copy",
    "scf.while : () -> ()",
    // Found by the audit of issue #16: terminators out of place, ops of
    // 13 only, the LLVM dialect's own spellings.
    "\"scf.yield\"() : () -> ()",
    "\"async.yield\"() : () -> ()",
    "^bb7:",
    "module {",
    "func @n() {",
    "splat",
    "absf",
    "memref.tensor_store",
    "memref.clone",
    "llvm.func @q() {",
    "llvm.return",
    "llvm.call @q() : () -> ()",
    "!llvm.ptr<i8>",
    "!llvm.struct<(i32, f64)>",
    "llvm.mlir.constant(1 : i32) : i32",
    "llvm.intr.coro.begin",
    "llvm.getelementptr",
];

/// Bytes that are not UTF-8 (lone continuation, truncated sequences,
/// overlong forms), inserted by the byte mutations.
pub const BAD_BYTES: &[&[u8]] = &[
    b"\xff",
    b"\x80",
    b"\xc3",
    b"\xe2\x82",
    b"\xc0\xaf",
    b"\xfe\xff",
];

/// Applies one seeded mutation, on bytes: the tools read bytes, and
/// invalid UTF-8 is valid in comments and strings.
pub fn mutate(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    let lines: Vec<&[u8]> = text.split_inclusive(|&c| c == b'\n').collect();
    let n = lines.len();
    match rng.below(13) {
        0 if n > 0 => {
            let i = rng.below(n);
            lines
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .flat_map(|(_, l)| l.iter().copied())
                .collect()
        }
        1 if n > 0 => {
            let i = rng.below(n);
            let mut v = lines.clone();
            v.insert(i, lines[i]);
            v.concat()
        }
        2 if n > 1 => {
            let (i, j) = (rng.below(n), rng.below(n));
            let mut v = lines.clone();
            v.swap(i, j);
            v.concat()
        }
        3 => {
            // Flip bytes to arbitrary values (invalid UTF-8 included).
            let mut b = text.to_vec();
            for _ in 0..=rng.below(4) {
                if !b.is_empty() {
                    let i = rng.below(b.len());
                    b[i] = rng.next() as u8;
                }
            }
            b
        }
        4 => text[..rng.below(text.len() + 1)].to_vec(),
        5 | 6 => {
            let mut b = text.to_vec();
            for _ in 0..=rng.below(3) {
                let at = rng.below(b.len() + 1);
                let tok = TOKENS[rng.below(TOKENS.len())].as_bytes();
                b.splice(at..at, tok.iter().copied());
            }
            b
        }
        7 => {
            // Delete a random span.
            let i = rng.below(text.len() + 1);
            let j = (i + rng.below(64)).min(text.len());
            let mut v = text[..i].to_vec();
            v.extend_from_slice(&text[j..]);
            v
        }
        8 => {
            // Line ends become carriage returns, or CR LF.
            let crlf = rng.below(2) == 0;
            let mut v = vec![];
            for &c in text {
                if c == b'\n' && rng.below(3) == 0 {
                    v.push(b'\r');
                    if crlf {
                        v.push(b'\n');
                    }
                } else {
                    v.push(c);
                }
            }
            v
        }
        9 => {
            // NUL and bytes outside UTF-8, in comments, strings or code.
            let mut b = text.to_vec();
            for _ in 0..=rng.below(3) {
                let at = rng.below(b.len() + 1);
                let ins: &[u8] = match rng.below(4) {
                    0 => b"\0",
                    1 => b"// \xff\0\xfe\n",
                    2 => b"\"\xc3\0\"",
                    _ => BAD_BYTES[rng.below(BAD_BYTES.len())],
                };
                b.splice(at..at, ins.iter().copied());
            }
            b
        }
        10 => {
            // Nesting around a line, from shallow to past the limit.
            let depth = [3, 100, 1000, 4000, 5000][rng.below(5)];
            let i = rng.below(n.max(1));
            let (open, close): (&[u8], &[u8]) = match rng.below(3) {
                0 => (b"%t = async.execute {\n", b"async.yield\n}\n"),
                1 => (b"scf.execute_region {\n", b"scf.yield\n}\n"),
                _ => (b"tuple<", b">"),
            };
            let mut v: Vec<u8> = lines[..i.min(n)].concat();
            v.extend(open.repeat(depth));
            v.extend(lines.get(i).copied().unwrap_or(b"i32"));
            v.extend(close.repeat(depth));
            for l in lines.iter().skip(i + 1) {
                v.extend_from_slice(l);
            }
            v
        }
        11 => {
            // A number becomes a huge one.
            let digits: Vec<usize> = (0..text.len())
                .filter(|&i| text[i].is_ascii_digit())
                .collect();
            let mut b = text.to_vec();
            if let Some(&at) = digits.get(rng.below(digits.len())) {
                let big = "9".repeat(1 + rng.below(400));
                b.splice(at..at, big.bytes());
            }
            b
        }
        _ => {
            // Duplicate a random span in place.
            let i = rng.below(text.len() + 1);
            let j = (i + rng.below(200)).min(text.len());
            let mut v = text[..j].to_vec();
            v.extend_from_slice(&text[i..]);
            v
        }
    }
}
