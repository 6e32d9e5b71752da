//! Recursive-descent parser for MLIR's textual form: the generic op form,
//! types, attributes, locations, and the services the dialects' custom op
//! parsers are written against (operands, successors, regions).

use crate::edition::{canonical_name, canonical_name_cow, Edition};
use crate::DialectHooks;
use mlir_async_ir::fxhash::FxHashMap as HashMap;
use mlir_async_ir::*;
use std::rc::Rc;

/// A parse error at a byte offset of the source.
#[derive(Clone, Debug)]
pub struct ParseError {
    pub pos: usize,
    pub message: String,
    /// Notes at other places of the source (`prior use here`).
    pub notes: Vec<(usize, String)>,
    /// A token other than the one expected stood at `pos` (MLIR's
    /// `emitWrongTokenError`): 15 reports it at the end of the token
    /// before, not at the token found.
    pub wrong_token: bool,
}

/// The messages MLIR 15 reports with `emitWrongTokenError` (besides
/// every `expected '<token>'` of `parseToken`).
const WRONG_TOKEN_MESSAGES: &[&str] = &[
    "expected non-function type",
    "expected attribute value",
    "expected attribute name",
    "expected operation name in quotes",
    "expected block name",
    "expected operand",
    "expected SSA operand",
    "expected location instance",
    "expected integer number of results",
    "expected integer value",
    "expected list element",
    "expected bare identifier",
    "elements hex string should start with '0x'",
];

impl ParseError {
    /// Does the byte at `pos` start no token of MLIR's lexer? Its lexer
    /// stops there with "unexpected character" before any parser error
    /// (`|` is a token from 15 on; `//` starts a comment).
    pub fn at_unexpected_character(b: &[u8], pos: usize, ed: crate::Edition) -> bool {
        let Some(&c) = b.get(pos) else {
            return false;
        };
        match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => false,
            b' ' | b'\t' | b'\n' | b'\r' | 0 => false,
            b':' | b',' | b'.' | b'(' | b')' | b'{' | b'}' | b'[' | b']' | b'<' | b'>' => false,
            b'=' | b'+' | b'*' | b'-' | b'?' | b'@' | b'#' | b'!' | b'^' | b'%' | b'"' => false,
            b'|' => ed != crate::Edition::V15,
            b'/' => b.get(pos + 1) != Some(&b'/'),
            _ => true,
        }
    }

    /// Where 15 reports a wrong token found at `pos` in `b`: right after
    /// the token before it, backing up over blanks, blank lines and a
    /// `//` comment ending the line before (MLIR's
    /// `Parser::emitWrongTokenError`).
    pub fn wrong_token_pos(b: &[u8], pos: usize) -> usize {
        let mut end = pos.min(b.len());
        if pos >= b.len() && end > 0 {
            // At the end of the input: one character back.
            end -= 1;
        }
        let original = end;
        loop {
            while end > 0 && (b[end - 1] == b' ' || b[end - 1] == b'\t') {
                end -= 1;
            }
            if end == 0 {
                return original;
            }
            if b[end - 1] != b'\n' && b[end - 1] != b'\r' {
                return end;
            }
            end -= 1;
            let line_start = b[..end]
                .iter()
                .rposition(|&c| c == b'\n' || c == b'\r')
                .map_or(0, |i| i);
            if let Some(c) = b[line_start..end].windows(2).position(|w| w == b"//") {
                end = line_start + c;
            }
        }
    }
}

/// Boxed: a parse function's result is then a word or two wide, returned
/// in registers, and errors are rare.
pub type PResult<T> = Result<T, Box<ParseError>>;

/// An operand reference seen before its type is known: `%name#index`.
/// The name is a slice of the source: reading an operand allocates nothing.
#[derive(Clone, Copy, Debug)]
pub struct UnresolvedOperand<'a> {
    pub name: &'a str,
    pub index: usize,
    pub pos: usize,
    /// `name_hash` of the name, computed where it was read.
    hash: u64,
}

/// An entry block argument spelled in a custom form: `%x: type`.
#[derive(Clone, Copy, Debug)]
pub struct RegionArg<'a> {
    pub name: &'a str,
    pub ty: Type,
    pub pos: usize,
}

/// An SSA name with its hash, computed once where the name is read: the
/// binding maps are keyed by it, so defining, using and dropping a name
/// never hashes its bytes again, and short names compare without `memcmp`.
#[derive(Clone, Copy, Debug)]
struct Name<'a> {
    hash: u64,
    s: &'a str,
}

impl PartialEq for Name<'_> {
    #[inline]
    fn eq(&self, o: &Self) -> bool {
        // Up to 8 bytes the hash is a bijection of the (zero-padded) bytes,
        // so equal hashes and lengths mean equal names; up to 16 two
        // overlapping words compare the rest (op names), without `memcmp`.
        let (a, b) = (self.s.as_bytes(), o.s.as_bytes());
        let n = a.len();
        if self.hash != o.hash || n != b.len() {
            return false;
        }
        if n <= 8 {
            return true;
        }
        if n <= 16 {
            let w = |x: &[u8], i: usize| u64::from_le_bytes(x[i..i + 8].try_into().expect("8"));
            return w(a, 0) == w(b, 0) && w(a, n - 8) == w(b, n - 8);
        }
        a == b
    }
}
impl Eq for Name<'_> {}
impl std::hash::Hash for Name<'_> {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash);
    }
}

/// The hasher of [`Name`] keys: the hash is already computed.
#[derive(Default, Clone, Copy)]
struct PreHashed(u64);

impl std::hash::Hasher for PreHashed {
    fn write(&mut self, bytes: &[u8]) {
        // Not used by `Name`; a correct fallback for anything else.
        for &c in bytes {
            self.0 = (self.0.rotate_left(5) ^ c as u64).wrapping_mul(HASH_K);
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type NameMap<'a, V> =
    std::collections::HashMap<Name<'a>, V, std::hash::BuildHasherDefault<PreHashed>>;

const HASH_K: u64 = 0x9e37_79b9_7f4a_7c15;

/// Bytes `s..s + n` (n <= 8) of `b` as a little-endian word, zero-padded:
/// one load where eight bytes are there to read.
#[inline]
fn word_at(b: &[u8], s: usize, n: usize) -> u64 {
    if let Some(c) = b.get(s..s + 8) {
        let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
        if n >= 8 {
            w
        } else {
            w & ((1u64 << (8 * n)) - 1)
        }
    } else {
        let mut w = 0u64;
        for (i, &c) in b[s..s + n].iter().enumerate() {
            w |= (c as u64) << (8 * i);
        }
        w
    }
}

/// The hash of `b[s..e]`: a multiply-rotate over words, finished so that
/// both the low bits (bucket) and the top bits (tag) of the table's use
/// are mixed. A bijection of the bytes for names of up to 8 bytes.
#[inline]
fn hash_range(b: &[u8], s: usize, e: usize) -> u64 {
    // Most names: one word, loaded whole (the loop's first round).
    if e - s <= 8 {
        if let Some(c) = b.get(s..s + 8) {
            let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
            let w = if e - s == 8 {
                w
            } else {
                w & ((1u64 << (8 * (e - s))) - 1)
            };
            let h = w.wrapping_mul(HASH_K);
            return h ^ (h >> 32);
        }
    }
    let mut h = 0u64;
    let mut i = s;
    loop {
        let n = (e - i).min(8);
        h = (h.rotate_left(5) ^ word_at(b, i, n)).wrapping_mul(HASH_K);
        i += n;
        if i >= e {
            break;
        }
    }
    h ^ (h >> 32)
}

/// The values a name is bound to: nearly always one; several (`%a:2`)
/// are a range of `Parser::many_values`. `Copy`, so the binding map's
/// entries need no drop and removing one is a plain erase.
#[derive(Clone, Copy)]
enum Bound {
    One(Value),
    Many(u32, u32),
}

/// Live SSA names: open addressing with linear probing, keyed by
/// [`Name`] (hashed where the name is read). Nothing is ever removed: a
/// closed scope's bindings go stale (see `Parser::live`), a stale one is
/// overwritten when its name is defined again, and `clear` (when no name
/// is live, at the end of a function) bumps a generation instead of
/// touching the slots.
struct NameTable<'a> {
    slots: Vec<Slot<'a>>,
    /// Slots of this generation are in use; others are empty.
    gen: u32,
    len: usize,
}

#[derive(Clone, Copy)]
struct Slot<'a> {
    key: Name<'a>,
    gen: u32,
    b: Binding,
}

impl<'a> NameTable<'a> {
    fn new() -> Self {
        NameTable {
            slots: Vec::new(),
            gen: 1,
            len: 0,
        }
    }

    /// The slot of `key`, or the empty slot where it would go.
    #[inline]
    fn probe(&self, key: &Name<'a>) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut i = key.hash as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.gen != self.gen {
                return (i, false);
            }
            if s.key == *key {
                return (i, true);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline(always)]
    fn get(&self, key: &Name<'a>) -> Option<&Slot<'a>> {
        if self.len == 0 {
            return None;
        }
        match self.probe(key) {
            (i, true) => Some(&self.slots[i]),
            _ => None,
        }
    }

    /// The slot of `key` and whether it holds `key` already; room is
    /// made for a new entry first.
    #[inline]
    fn entry(&mut self, key: &Name<'a>) -> (usize, bool) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        self.probe(key)
    }

    /// Fills an empty slot found by `entry`.
    #[inline]
    fn fill(&mut self, i: usize, key: Name<'a>, b: Binding) {
        self.slots[i] = Slot {
            key,
            gen: self.gen,
            b,
        };
        self.len += 1;
    }

    #[cold]
    fn grow(&mut self) {
        let cap = (2 * self.slots.len()).max(64);
        let empty = Slot {
            key: Name { hash: 0, s: "" },
            gen: 0,
            b: Binding {
                scope: 0,
                uid: 0,
                bound: Bound::Many(0, 0),
            },
        };
        let old = std::mem::replace(&mut self.slots, vec![empty; cap]);
        let gen = self.gen;
        self.gen = 1;
        self.len = 0;
        for s in old {
            if s.gen == gen {
                let (i, _) = self.probe(&s.key);
                self.fill(i, s.key, s.b);
            }
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        if self.gen == u32::MAX {
            for s in &mut self.slots {
                s.gen = 0;
            }
            self.gen = 1;
        } else {
            self.gen += 1;
        }
    }
}

struct Scope<'a> {
    /// `Parser::defined` when this scope opened: names defined outside it.
    log_start: usize,
    /// Unique among the scopes of a parse: a binding made in this scope
    /// is live while the scope at its depth still has this id.
    uid: u32,
    /// Where this scope's multi-value bindings start in
    /// `Parser::many_values`, and its shadowed bindings in
    /// `Parser::shadowed`.
    many_start: usize,
    shadow_start: usize,
    /// An isolated-from-above region starts a scope that hides outer names.
    isolated: bool,
    /// Forward references (isolated scopes only): name -> (result index,
    /// placeholder, position of the first use).
    forward: NameMap<'a, Vec<(usize, Value, usize)>>,
}

/// The innermost binding of an SSA name. The ones it shadows (an
/// isolated region may reuse a name of its parent; rare) wait in
/// `Parser::shadowed`.
///
/// Closing a scope does not remove its bindings: they go stale, found
/// out by `Parser::live` (and overwritten or cleared later), so a name
/// costs one table operation instead of two.
#[derive(Clone, Copy)]
struct Binding {
    scope: u32,
    uid: u32,
    bound: Bound,
}

/// Where the last location was computed: op locations are asked for in
/// source order, so each one only counts lines from the previous one.
#[derive(Clone, Copy, Default)]
struct LineCursor {
    pos: usize,
    /// 0-based line of `pos`.
    line: u32,
    /// Byte offset where that line starts.
    line_start: usize,
}

/// A custom op name seen before (see `Parser::custom_op_name`): its
/// first sixteen bytes as two masked words, the rest as bytes.
struct OpNameEntry {
    len: usize,
    key0: u64,
    mask0: u64,
    key1: u64,
    mask1: u64,
    tail: Box<[u8]>,
    canon: Rc<str>,
    sym: Symbol,
    ed: Option<Edition>,
    /// `DialectHooks::custom_parser` of `sym`.
    parse: Option<crate::CustomParseFn>,
}

/// What `Parser::custom_op_name` knows of a custom op name.
struct OpName<'a> {
    /// As spelled.
    name: &'a str,
    /// The canonical name (`func.func` for 14's `func`) and its symbol.
    canon: Rc<str>,
    sym: Symbol,
    /// The generation the spelling betrays.
    ed: Option<Edition>,
    /// `DialectHooks::custom_parser` of `sym`.
    parse: Option<crate::CustomParseFn>,
}

const OP_BUCKETS: usize = 256;

#[inline]
fn op_bucket(w: u64) -> usize {
    let h = w.wrapping_mul(HASH_K);
    ((h ^ (h >> 29)) >> 56) as usize
}

struct BlockScope {
    blocks: HashMap<String, (Block, bool, usize)>,
}

pub struct Parser<'a, 'c> {
    pub ctx: &'c mut Context,
    src: &'a str,
    b: &'a [u8],
    pub pos: usize,
    /// A position known to start no whitespace or comment (the source
    /// never changes, so this holds until `pos` moves away from it).
    ws_at: usize,
    file: Symbol,
    cursor: LineCursor,
    /// See `NewlineIndex`; built at the first location asked for.
    newlines: Option<NewlineIndex>,
    line_offset: u32,
    hooks: &'a dyn DialectHooks,
    scopes: Vec<Scope<'a>>,
    /// Live SSA names. Names are borrowed from the source, so a
    /// definition allocates nothing; closing a scope removes its names, so
    /// the map holds one function's names at most.
    bindings: NameTable<'a>,
    /// The values of `Bound::Many` bindings.
    many_values: Vec<Value>,
    /// Bindings hidden by a redefinition in an isolated scope, restored
    /// when that scope closes (see `Scope::shadow_start`).
    shadowed: Vec<(Name<'a>, Binding)>,
    /// See `custom_op_name`.
    op_entries: Vec<OpNameEntry>,
    /// Indices into `op_entries` by `op_bucket` of the first word of a
    /// name of eight bytes or more, then (from `OP_BUCKETS` on) of the
    /// first two bytes of a shorter one.
    op_buckets: Vec<Vec<u32>>,
    /// Result lists (`%a, %b:2 =`) of the ops being parsed, innermost last.
    result_names: Vec<(Name<'a>, usize, usize)>,
    /// Operand references read but not yet resolved, of the ops being
    /// parsed (a stack: see `parse_operand_list_pending`).
    pending_operands: Vec<UnresolvedOperand<'a>>,
    /// Types read for pending operands (a stack as `pending_operands`).
    pending_types: Vec<Type>,
    /// Symbols of the `'static` names custom parsers ask for at every op
    /// (`predicate`, `value`), by the address of the literal.
    static_syms: HashMap<(usize, usize), Symbol>,
    /// See `memo_attr`.
    attr_memo: HashMap<(usize, u64), Attribute>,
    /// See `scalar_type`.
    scalar_types: [Option<Type>; 108],
    /// Cleared op states for reuse, one per nesting level in use.
    /// Boxed: taking one and giving it back moves a pointer, not the
    /// state's five list headers.
    #[allow(clippy::vec_box)]
    free_states: Vec<Box<OperationState>>,
    /// The number of live definitions: with none left when a scope
    /// closes (a function body), the binding table is cleared.
    defined: usize,
    /// The id of the next scope opened.
    next_uid: u32,
    /// Index of the innermost isolated scope: bindings of outer scopes
    /// are hidden from it.
    isolated_at: usize,
    block_scopes: Vec<BlockScope>,
    attr_aliases: HashMap<String, Attribute>,
    type_aliases: HashMap<String, Type>,
    loc_aliases: HashMap<String, Location>,
    pending_loc_aliases: Vec<(Op, String, usize)>,
    placeholder: Symbol,
    /// Where each element of the dense attribute being read was spelled:
    /// its kind is only checked against the element type, which follows
    /// the literal, and upstream reports a mismatch at the element.
    dense_at: Vec<DenseLit>,
    pub allow_unregistered: bool,
    /// The generation the spelling of the input betrays.
    pub seen: Option<Edition>,
    pub saw_legacy_func: bool,
    /// The first bare builtin op name (`module`, `func`) outside a module
    /// body, read while the generation was open: only 13 takes those
    /// there (they were the ops' full names). Position, name, and the
    /// default dialect 15 would have tried; an error unless the input
    /// turns out to be 13 (see [`Parser::bare_builtin_error`]).
    pub bare_builtin: Option<(usize, &'static str, &'static str)>,
    /// Function arguments given a location of their own (`%a: i32
    /// loc(...)`) before the generation was known, with the location of
    /// their name: 13 ignored the written one.
    pub arg_locs_before_13: Vec<(Value, Location)>,
    /// Where the name of the op whose custom form is being parsed began
    /// (MLIR's `getNameLoc`); read it first thing, nested ops move it.
    pub op_name_pos: usize,
    depth: usize,
    /// The custom-form ops whose regions are being parsed, innermost last:
    /// in 15 the innermost one's dialect is the default for unprefixed
    /// names (`func` in a `func.func` body, none in an `scf.if`).
    custom_parents: Vec<Symbol>,
}

/// The offsets of all newlines of the source, found in one word-at-a-time
/// pass: each op's location is then a step or two along it instead of a
/// scan of the text since the previous op.
struct NewlineIndex {
    nl: Vec<u32>,
    /// No byte of the source is outside ASCII: columns are byte counts.
    ascii: bool,
    /// Newlines before `at`, from the previous look-up.
    k: usize,
    at: usize,
}

impl NewlineIndex {
    /// `None` for sources whose offsets do not fit `u32`.
    #[cold]
    #[inline(never)]
    fn new(b: &[u8]) -> Option<Self> {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const NL: u64 = 0x0a0a_0a0a_0a0a_0a0a;
        if u32::try_from(b.len()).is_err() {
            return None;
        }
        // Roughly one line per 30 bytes of MLIR text.
        let mut nl = Vec::with_capacity(b.len() / 30 + 16);
        let mut high = 0u64;
        // Bit 7 of each byte of the mask is set iff that byte of `w` is a
        // newline (see `advance_cursor`).
        let mask = |w: u64| {
            let x = w ^ NL;
            !(((x & LOW7) + LOW7) | x) & !LOW7
        };
        // 32 bytes a round: one loop step and one test for four words,
        // most of which hold no newline.
        let mut chunks = b.chunks_exact(32);
        let mut off = 0u32;
        for c in &mut chunks {
            let c: &[u8; 32] = c.try_into().expect("32 bytes");
            let w = |i: usize| u64::from_le_bytes(c[i..i + 8].try_into().expect("eight bytes"));
            let (w0, w1, w2, w3) = (w(0), w(8), w(16), w(24));
            high |= w0 | w1 | w2 | w3;
            // Bit 7 of byte k of each mask to bit k of one 32-bit mask.
            let gather = |m: u64| ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
            let mut m = gather(mask(w0))
                | gather(mask(w1)) << 8
                | gather(mask(w2)) << 16
                | gather(mask(w3)) << 24;
            while m != 0 {
                nl.push(off + m.trailing_zeros());
                m &= m - 1;
            }
            off += 32;
        }
        let rest = chunks.remainder();
        let mut chunks = rest.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
            high |= w;
            let mut m = mask(w);
            while m != 0 {
                nl.push(off + m.trailing_zeros() / 8);
                m &= m - 1;
            }
            off += 8;
        }
        for (i, &c) in chunks.remainder().iter().enumerate() {
            high |= c as u64;
            if c == b'\n' {
                nl.push(off + i as u32);
            }
        }
        Some(NewlineIndex {
            nl,
            ascii: high & !LOW7 == 0,
            k: 0,
            at: 0,
        })
    }

    /// 0-based line of `pos` and the offset where that line starts.
    #[inline]
    fn line_of(&mut self, pos: usize) -> (u32, usize) {
        let mut k = self.k;
        if pos >= self.at {
            while k < self.nl.len() && (self.nl[k] as usize) < pos {
                k += 1;
            }
        } else {
            k = self.nl.partition_point(|&x| (x as usize) < pos);
        }
        self.k = k;
        self.at = pos;
        let start = if k == 0 {
            0
        } else {
            self.nl[k - 1] as usize + 1
        };
        (k as u32, start)
    }
}

/// Moves `cur` forward to `pos` (>= `cur.pos`), counting newlines and
/// finding the last one in the same pass, eight bytes at a time.
fn advance_cursor(b: &[u8], mut cur: LineCursor, pos: usize) -> LineCursor {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const NL: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let seg = &b[cur.pos..pos];
    let mut chunks = seg.chunks_exact(8);
    let mut n = 0u32;
    let mut last = None;
    let mut off = 0;
    for c in &mut chunks {
        let x = u64::from_le_bytes(c.try_into().expect("eight bytes")) ^ NL;
        // Bit 7 of each byte of `m` is set iff that byte is a newline: bit 7
        // of `((x & LOW7) + LOW7) | x` is set iff that byte of `x` is not
        // zero (no carry crosses a byte: at most 0x7f + 0x7f).
        let m = !(((x & LOW7) + LOW7) | x) & !LOW7;
        if m != 0 {
            n += m.count_ones();
            last = Some(off + (63 - m.leading_zeros() as usize) / 8);
        }
        off += 8;
    }
    for (i, &c) in chunks.remainder().iter().enumerate() {
        if c == b'\n' {
            n += 1;
            last = Some(off + i);
        }
    }
    if let Some(i) = last {
        cur.line += n;
        cur.line_start = cur.pos + i + 1;
    }
    cur.pos = pos;
    cur
}

/// Longest integer literal converted exactly (some 330k bits); longer
/// ones are reported out of range (MLIR would accept them for the very
/// widest types), as converting them would take quadratic time.
const MAX_LITERAL_DIGITS: usize = 100_000;

/// Deepest nesting accepted before reporting an error instead of
/// overflowing the stack.
const MAX_DEPTH: usize = 8192;

fn is_id_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}
/// Character classes of the lexer, one table lookup per byte.
const ID_CHAR: u8 = 1;
const SUFFIX_CHAR: u8 = 2;
/// A byte `skip_ws` must look past: a space or control character (the
/// whitespace, and what ends the text), or `/` (a comment may start).
const WS_OR_SLASH: u8 = 4;
const CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.' {
            t[c] |= ID_CHAR | SUFFIX_CHAR;
        }
        if b == b'-' {
            t[c] |= SUFFIX_CHAR;
        }
        if b <= b' ' || b == b'/' {
            t[c] |= WS_OR_SLASH;
        }
        c += 1;
    }
    t
};
#[inline]
fn is_id_char(c: u8) -> bool {
    CLASSES[c as usize] & ID_CHAR != 0
}
#[inline]
fn is_suffix_char(c: u8) -> bool {
    CLASSES[c as usize] & SUFFIX_CHAR != 0
}

impl<'a, 'c> Parser<'a, 'c> {
    pub fn new(
        ctx: &'c mut Context,
        file: &str,
        src: &'a str,
        line_offset: u32,
        hooks: &'a dyn DialectHooks,
    ) -> Self {
        let file = ctx.sym(file);
        let placeholder = ctx.sym("<<forward reference>>");
        Parser {
            ctx,
            src,
            b: src.as_bytes(),
            pos: 0,
            ws_at: usize::MAX,
            file,
            cursor: LineCursor::default(),
            newlines: None,
            line_offset,
            hooks,
            scopes: vec![],
            bindings: NameTable::new(),
            many_values: Vec::new(),
            shadowed: Vec::new(),
            op_entries: Vec::new(),
            op_buckets: vec![Vec::new(); 2 * OP_BUCKETS],
            result_names: Vec::new(),
            pending_operands: Vec::new(),
            pending_types: Vec::new(),
            static_syms: HashMap::default(),
            attr_memo: HashMap::default(),
            scalar_types: [None; 108],
            free_states: Vec::new(),
            defined: 0,
            next_uid: 0,
            isolated_at: 0,
            block_scopes: vec![],
            attr_aliases: HashMap::default(),
            type_aliases: HashMap::default(),
            loc_aliases: HashMap::default(),
            pending_loc_aliases: vec![],
            placeholder,
            dense_at: Vec::new(),
            allow_unregistered: false,
            seen: None,
            saw_legacy_func: false,
            bare_builtin: None,
            arg_locs_before_13: Vec::new(),
            op_name_pos: 0,
            depth: 0,
            custom_parents: Vec::new(),
        }
    }

    /// Lexes `raw` instead of the text's bytes: the source as read, of
    /// which the text is [`crate::decode_source`] (same length, same
    /// offsets). String literals then keep bytes that are not UTF-8.
    pub fn set_raw_bytes(&mut self, raw: &'a [u8]) {
        if raw.len() == self.b.len() {
            self.b = raw;
        }
    }

    /// Skips whitespace: was it exactly two spaces? (13 printed two
    /// before a module's body, a spelling of its own.)
    pub fn skip_two_spaces(&mut self) -> bool {
        let s = self.pos;
        self.skip_ws();
        self.pos == s + 2 && &self.b[s..self.pos] == b"  "
    }

    /// Skips whitespace: did exactly two spaces stand before what follows?
    /// (13's `printRegion` wrote a space of its own after the one its
    /// generated printers wrote.)
    pub fn two_spaces_before_next(&mut self) -> bool {
        self.skip_ws();
        let s = self.pos;
        s >= 3 && &self.b[s - 2..s] == b"  " && !self.b[s - 3].is_ascii_whitespace()
    }

    /// Records a spelling that 13 and 14 use, and 15 does not.
    pub fn note_before_15(&mut self) {
        self.saw_legacy_func = true;
    }

    /// Records a spelling that only one generation uses.
    pub fn note_edition(&mut self, e: Edition) {
        self.seen = Some(match self.seen {
            Some(s) => s.max(e),
            None => e,
        });
    }

    /// 1-based line and column (in characters) of a byte offset. Scans
    /// from the start: for diagnostics, not for every op.
    pub fn line_col(&self, pos: usize) -> (u32, u32) {
        let pos = pos.min(self.b.len());
        let cur = advance_cursor(self.b, LineCursor::default(), pos);
        self.cursor_line_col(cur, pos)
    }

    fn cursor_line_col(&self, cur: LineCursor, pos: usize) -> (u32, u32) {
        // Columns count characters: skip UTF-8 continuation bytes (the
        // ASCII test is word at a time, and nearly every line passes it).
        let line = &self.b[cur.line_start..pos];
        let col = if line.is_ascii() {
            line.len()
        } else {
            line.iter().filter(|&&c| (c as i8) >= -0x40).count()
        };
        (cur.line + 1 + self.line_offset, col as u32 + 1)
    }

    #[inline]
    pub fn loc_at(&mut self, pos: usize) -> Location {
        let pos = pos.min(self.b.len());
        if self.newlines.is_none() {
            self.newlines = NewlineIndex::new(self.b);
        }
        if let Some(ix) = &mut self.newlines {
            let (line, start) = ix.line_of(pos);
            let col = if ix.ascii {
                (pos - start) as u32 + 1
            } else {
                self.cursor_line_col(
                    LineCursor {
                        pos,
                        line,
                        line_start: start,
                    },
                    pos,
                )
                .1
            };
            let l = line + 1 + self.line_offset;
            let f = self.file;
            return self.ctx.loc(LocKind::FileLineCol(f, l, col));
        }
        self.loc_by_cursor(pos)
    }

    /// [`Parser::loc_at`] for sources too large for a newline index.
    #[inline(never)]
    fn loc_by_cursor(&mut self, pos: usize) -> Location {
        let cur = if pos >= self.cursor.pos {
            advance_cursor(self.b, self.cursor, pos)
        } else {
            advance_cursor(self.b, LineCursor::default(), pos)
        };
        self.cursor = cur;
        let (l, c) = self.cursor_line_col(cur, pos);
        let f = self.file;
        self.ctx.loc(LocKind::FileLineCol(f, l, c))
    }

    pub fn err<T>(&self, pos: usize, msg: impl Into<String>) -> PResult<T> {
        let message = msg.into();
        let wrong_token =
            message.starts_with("expected '") || WRONG_TOKEN_MESSAGES.contains(&message.as_str());
        Err(Box::new(ParseError {
            notes: vec![],
            pos,
            message,
            wrong_token,
        }))
    }
    pub fn err_here<T>(&mut self, msg: impl Into<String>) -> PResult<T> {
        self.skip_ws();
        self.err(self.pos, msg)
    }

    // ----- lexing -----

    #[inline]
    pub fn skip_ws(&mut self) {
        // Asked again where nothing was consumed since (a peek, then an
        // `eat`, then the token): one compare.
        if self.pos == self.ws_at {
            return;
        }
        // Fast path: most tokens are not preceded by whitespace or a
        // comment, and the lexer asks at every token.
        let clear = |c: &u8| CLASSES[*c as usize] & WS_OR_SLASH == 0;
        match self.b.get(self.pos) {
            Some(c) if clear(c) => {}
            None => {}
            // One space between tokens, the next most common case.
            Some(b' ') if self.b.get(self.pos + 1).is_some_and(clear) => self.pos += 1,
            _ => self.skip_ws_slow(),
        }
        self.ws_at = self.pos;
    }
    fn skip_ws_slow(&mut self) {
        loop {
            match self.b.get(self.pos) {
                // Runs of spaces (indentation) eight at a time.
                Some(b' ') => match self.b.get(self.pos..self.pos + 8) {
                    Some(c) => {
                        let x = u64::from_le_bytes(c.try_into().expect("eight bytes"))
                            ^ 0x2020_2020_2020_2020;
                        self.pos += if x == 0 {
                            8
                        } else {
                            x.trailing_zeros() as usize / 8
                        };
                    }
                    None => self.pos += 1,
                },
                Some(c) if c.is_ascii_whitespace() => self.pos += 1,
                // MLIR's lexer ends a comment at a carriage return as well
                // as at a newline: code after a bare CR is code.
                Some(b'/') if self.b.get(self.pos + 1) == Some(&b'/') => {
                    let rest = &self.b[self.pos..];
                    self.pos += rest
                        .iter()
                        .position(|&c| c == b'\n' || c == b'\r')
                        .unwrap_or(rest.len());
                }
                _ => break,
            }
        }
    }
    #[inline]
    pub fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.b.len()
    }
    #[inline]
    pub fn peek(&mut self) -> u8 {
        self.skip_ws();
        self.b.get(self.pos).copied().unwrap_or(0)
    }
    pub fn peek_at(&mut self, off: usize) -> u8 {
        self.skip_ws();
        self.b.get(self.pos + off).copied().unwrap_or(0)
    }
    /// Consumes a punctuation string if it is next.
    #[inline]
    pub fn eat(&mut self, p: &str) -> bool {
        // Inlined so that the one-byte punctuation of nearly every call
        // becomes a byte compare.
        match p.as_bytes() {
            [c] => self.eat_byte(*c),
            pb => self.eat_bytes(pb),
        }
    }
    /// [`Parser::eat`] of one byte.
    #[inline]
    pub fn eat_byte(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.b.get(self.pos) != Some(&c) {
            return false;
        }
        // `-` must not eat the start of `->`.
        if c == b'-' && self.b.get(self.pos + 1) == Some(&b'>') {
            return false;
        }
        self.pos += 1;
        true
    }
    fn eat_bytes(&mut self, pb: &[u8]) -> bool {
        self.skip_ws();
        if self.b[self.pos..].starts_with(pb) {
            self.pos += pb.len();
            true
        } else {
            false
        }
    }
    #[inline]
    pub fn expect(&mut self, p: &str) -> PResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.expected(p)
        }
    }
    #[cold]
    #[inline(never)]
    fn expected(&mut self, p: &str) -> PResult<()> {
        self.err_here(format!("expected '{p}'"))
    }
    /// A bare identifier (`[a-zA-Z_][a-zA-Z0-9_$.]*`), not consumed.
    pub fn peek_ident(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let s = self.pos;
        if s >= self.b.len() || !is_id_start(self.b[s]) {
            return None;
        }
        let mut e = s + 1;
        while e < self.b.len() && is_id_char(self.b[e]) {
            e += 1;
        }
        Some(&self.src[s..e])
    }
    pub fn ident(&mut self) -> Option<&'a str> {
        let id = self.peek_ident()?;
        self.pos += id.len();
        Some(id)
    }
    /// Is the identifier `k` next? `k` must be a valid identifier.
    #[inline]
    fn at_keyword(&mut self, k: &str) -> bool {
        self.skip_ws();
        let kb = k.as_bytes();
        self.b[self.pos..].starts_with(kb)
            && !self
                .b
                .get(self.pos + kb.len())
                .is_some_and(|&c| is_id_char(c))
    }
    #[inline]
    pub fn eat_keyword(&mut self, k: &str) -> bool {
        if self.at_keyword(k) {
            self.pos += k.len();
            true
        } else {
            false
        }
    }
    #[inline]
    pub fn expect_keyword(&mut self, k: &str) -> PResult<()> {
        if self.eat_keyword(k) {
            Ok(())
        } else {
            self.expected(k)
        }
    }
    /// MLIR's `suffix-id` at `pos`, consumed; empty if there is none
    /// (quoted names, `@"foo bar"`, are handled by the callers).
    pub fn suffix_id(&mut self) -> &'a str {
        let s = self.pos;
        let e = self.suffix_end(s);
        self.pos = e;
        &self.src[s..e]
    }
    /// Where the `suffix-id` starting at `s` ends: digits only if it
    /// starts with one (`%12i32` is `%12`, then `i32`). A quote is no
    /// suffix character: a quoted name ends where it starts.
    #[inline]
    fn suffix_end(&self, s: usize) -> usize {
        let b = self.b;
        let mut e = s;
        if b.get(s).is_some_and(u8::is_ascii_digit) {
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
        } else {
            while e < b.len() && is_suffix_char(b[e]) {
                e += 1;
            }
        }
        e
    }
    /// A string literal with MLIR's escapes, as text (names, locations):
    /// bytes that are not UTF-8 become U+FFFD.
    pub fn string_lit(&mut self) -> PResult<String> {
        let b = self.string_lit_bytes()?;
        Ok(match String::from_utf8(b) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }

    /// A string literal with MLIR's escapes, byte for byte: MLIR's strings
    /// are bytes (`"\FF"`, NUL and invalid UTF-8 included).
    pub fn string_lit_bytes(&mut self) -> PResult<Vec<u8>> {
        self.skip_ws();
        let start = self.pos;
        if self.b.get(self.pos) != Some(&b'"') {
            return self.err_here("expected string literal");
        }
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            match self.b.get(self.pos) {
                // As MLIR's lexer: a line break (vertical tab and form feed
                // too) or the end of the buffer ends the literal in error,
                // reported where it happens.
                None => return self.err(self.pos, "expected '\"' in string literal"),
                Some(b'\n' | 0x0b | 0x0c) => {
                    return self.err(self.pos, "expected '\"' in string literal")
                }
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    let n = self.b.get(self.pos + 1).copied().unwrap_or(0);
                    match n {
                        b'"' | b'\\' => {
                            out.push(n);
                            self.pos += 2;
                        }
                        b'n' => {
                            out.push(b'\n');
                            self.pos += 2;
                        }
                        b't' => {
                            out.push(b'\t');
                            self.pos += 2;
                        }
                        _ => {
                            let h = self.b.get(self.pos + 1..self.pos + 3);
                            match h
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u8::from_str_radix(h, 16).ok())
                            {
                                Some(v) => {
                                    out.push(v);
                                    self.pos += 3;
                                }
                                None => {
                                    return self.err(self.pos, "unknown escape in string literal")
                                }
                            }
                        }
                    }
                }
                Some(&c) => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
        let _ = start;
        Ok(out)
    }
    /// An integer literal (decimal or hex), with optional leading `-`.
    pub fn int_lit(&mut self) -> Option<i128> {
        self.skip_ws();
        let s = self.pos;
        let neg = self.b.get(s) == Some(&b'-');
        let mut p = s + neg as usize;
        if self.b[p..].starts_with(b"0x") {
            let hs = p + 2;
            p = hs;
            while p < self.b.len() && self.b[p].is_ascii_hexdigit() {
                p += 1;
            }
            // Beyond `i128::MAX` is a wide literal (`int_lit_wide`).
            let v = i128::try_from(u128::from_str_radix(&self.src[hs..p], 16).ok()?).ok()?;
            self.pos = p;
            return Some(if neg { -v } else { v });
        }
        let ds = p;
        while p < self.b.len() && self.b[p].is_ascii_digit() {
            p += 1;
        }
        if p == ds || (p < self.b.len() && self.b[p] == b'.') {
            return None;
        }
        // Read as u128: `-2^127` (the least i128) and unsigned-range
        // values of an i128 have no positive i128 spelling.
        let v: u128 = self.src[ds..p].parse().ok()?;
        if neg && v > 1 << 127 {
            return None;
        }
        self.pos = p;
        Some(if neg {
            (v as i128).wrapping_neg()
        } else {
            v as i128
        })
    }
    /// An integer literal of any size: its sign and magnitude (see
    /// `mlir_async_ir::wide`), for literals `int_lit` cannot hold.
    fn int_lit_wide(&mut self) -> Option<(bool, Vec<u64>)> {
        self.skip_ws();
        let s = self.pos;
        let neg = self.b.get(s) == Some(&b'-');
        let mut p = s + neg as usize;
        let hex = self.b[p..].starts_with(b"0x");
        if hex {
            p += 2;
        }
        let ds = p;
        while p < self.b.len()
            && (self.b[p].is_ascii_digit() || (hex && self.b[p].is_ascii_hexdigit()))
        {
            p += 1;
        }
        if p == ds || (!hex && self.b.get(p) == Some(&b'.')) {
            return None;
        }
        // Converting digits to words is quadratic in their count: a
        // literal longer than any sensible constant stands for 2^(2^24),
        // out of range for every type (the widest has 2^24 - 1 bits), so
        // the range check rejects it.
        let digits = &self.b[ds..p];
        let radix = if hex { 16 } else { 10 };
        self.pos = p;
        if digits.len() > MAX_LITERAL_DIGITS {
            let mut mag = vec![0u64; (1 << 24) / 64 + 1];
            mag[(1 << 24) / 64] = 1;
            return Some((neg, mag));
        }
        Some((neg, wide::parse_magnitude(digits, radix)?))
    }

    /// A float literal `[-]d+.d*([eE][+-]?d+)?`.
    pub fn float_lit(&mut self) -> Option<f64> {
        self.skip_ws();
        let s = self.pos;
        let mut p = s;
        if self.b.get(p) == Some(&b'-') {
            p += 1;
        }
        let ds = p;
        while p < self.b.len() && self.b[p].is_ascii_digit() {
            p += 1;
        }
        if p == ds || self.b.get(p) != Some(&b'.') {
            return None;
        }
        p += 1;
        while p < self.b.len() && self.b[p].is_ascii_digit() {
            p += 1;
        }
        if matches!(self.b.get(p), Some(b'e') | Some(b'E')) {
            let mut q = p + 1;
            if matches!(self.b.get(q), Some(b'+') | Some(b'-')) {
                q += 1;
            }
            let es = q;
            while q < self.b.len() && self.b[q].is_ascii_digit() {
                q += 1;
            }
            if q > es {
                p = q;
            }
        }
        let v = self.src[s..p].parse().ok()?;
        self.pos = p;
        Some(v)
    }

    // ----- top level -----

    /// Closes the innermost block scope; a block referenced in it but
    /// never defined is an error at its first reference.
    fn pop_block_scope(&mut self) -> PResult<()> {
        let bs = self.block_scopes.pop().expect("block scope open");
        if let Some((_, (_, _, pos))) = bs
            .blocks
            .iter()
            .filter(|(_, (_, defined, _))| !defined)
            .min_by_key(|(_, (_, _, p))| *p)
        {
            return self.err(*pos, "reference to an undefined block");
        }
        Ok(())
    }

    /// Parses a whole buffer into a `builtin.module` op (the one written,
    /// or an implicit one around the top-level ops).
    pub fn parse_module(&mut self) -> PResult<Op> {
        let module_name = self.ctx.sym("builtin.module");
        let region = self.ctx.create_region();
        let block = self.ctx.create_block(&[]);
        self.ctx.append_block(region, block);
        self.push_scope(true);
        self.block_scopes.push(BlockScope {
            blocks: HashMap::default(),
        });
        loop {
            if self.at_end() {
                break;
            }
            match self.peek() {
                b'#' => self.parse_attr_alias_def()?,
                b'!' => self.parse_type_alias_def()?,
                _ => {
                    let op = self.parse_operation()?;
                    self.ctx.append_op(block, op);
                }
            }
        }
        // Top-level ops may name successors too (generic form): the
        // implicit module body checks its block references as any region.
        self.pop_block_scope()?;
        self.finish_isolated_scope()?;
        self.resolve_loc_aliases()?;
        let ops = self.ctx.block_ops(block);
        if ops.len() == 1 && self.ctx.op(ops[0]).name == module_name {
            self.ctx.detach_op(ops[0]);
            return Ok(ops[0]);
        }
        // mlir-opt locates the module it makes up at line 0, column 0.
        let loc = self.ctx.loc(LocKind::FileLineCol(self.file, 0, 0));
        let mut st = OperationState::new(module_name, loc);
        st.regions = vec![region];
        Ok(self.ctx.create_op(st))
    }

    fn parse_attr_alias_def(&mut self) -> PResult<()> {
        let start = self.pos;
        self.pos += 1;
        let name = self.suffix_id().to_string();
        if !self.eat("=") {
            return self.err(start, "expected '=' in attribute alias definition");
        }
        if self.peek_ident() == Some("loc") {
            let l = self.parse_location_body()?;
            self.loc_aliases.insert(name, l);
            return Ok(());
        }
        let a = self.parse_attribute(None)?;
        if self.attr_aliases.insert(name.clone(), a).is_some() {
            return self.err(
                start,
                format!("redefinition of attribute alias id '{name}'"),
            );
        }
        Ok(())
    }
    fn parse_type_alias_def(&mut self) -> PResult<()> {
        let start = self.pos;
        self.pos += 1;
        let name = self.suffix_id().to_string();
        if !self.eat("=") {
            return self.err(start, "expected '=' in type alias definition");
        }
        self.eat_keyword("type");
        let t = self.parse_type()?;
        if self.type_aliases.insert(name.clone(), t).is_some() {
            return self.err(start, format!("redefinition of type alias id '{name}'"));
        }
        Ok(())
    }

    // ----- operations -----

    /// Parses one operation (custom or generic form) with its result list.
    pub fn parse_operation(&mut self) -> PResult<Op> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err_here("nesting too deep")
        } else {
            self.parse_operation_inner()
        };
        self.depth -= 1;
        r
    }

    fn parse_operation_inner(&mut self) -> PResult<Op> {
        self.skip_ws();
        let start = self.pos;
        // Result list: `%a, %b:2 =`, on the shared stack from `names_at`
        // (nested ops push and pop above it while this op's body parses);
        // the common single name, `%a =`, kept here instead.
        let names_at = self.result_names.len();
        let mut one = None;
        if self.peek() == b'%' {
            one = self.single_result_name();
            if one.is_none() {
                self.parse_result_names()?;
            }
        }
        let (total, has_names) = match one {
            Some(_) => (1, true),
            None => (
                self.result_names[names_at..].iter().map(|r| r.1).sum(),
                self.result_names.len() > names_at,
            ),
        };
        self.skip_ws();
        let name_pos = self.pos;
        // MLIR locates an op at its name, not at its result list.
        let loc = self.loc_at(name_pos);
        // The number of results the op has.
        let nres;
        let op = if self.peek() == b'"' {
            let name = self.string_lit()?;
            let op = self.parse_generic_op(&name, loc, name_pos)?;
            nres = self.ctx.results(op).len();
            op
        } else {
            let Some(OpName {
                name,
                canon,
                sym,
                ed,
                parse,
            }) = self.custom_op_name()
            else {
                return self.err_here("expected operation name in quotes");
            };
            if let Some(e) = ed {
                self.note_edition(e);
            }
            // `func` directly in a `func.func` body of the 15 syntax is
            // that function's default dialect at work, not 14's `func`.
            let legacy_func =
                name == "func" && !(self.seen == Some(Edition::V15) && self.in_func_body());
            if legacy_func || name == "module" {
                // 13 registered its builtin ops under these bare names, so
                // they parse anywhere; 14 and 15 reach them through the
                // default dialect, which is `builtin` only in a module
                // body (a function's is `std` in 14, `func` in 15).
                if !self.in_module_body() {
                    let bare = if legacy_func { "func" } else { "module" };
                    let default = self.default_dialect();
                    if let Some(e @ (Edition::V14 | Edition::V15)) = self.seen {
                        let m = Parser::bare_builtin_error(bare, default, e);
                        return self.err(name_pos, m);
                    }
                    self.note_edition(Edition::V13);
                    self.bare_builtin.get_or_insert((name_pos, bare, default));
                }
                if legacy_func {
                    self.saw_legacy_func = true;
                }
            }
            // A state from the free list: its vectors keep their capacity,
            // so parsing an op allocates no lists of its own.
            let mut st = self
                .free_states
                .pop()
                .unwrap_or_else(|| Box::new(OperationState::new(sym, loc)));
            st.name = sym;
            st.loc = loc;
            if self.seen == Some(Edition::V15)
                && !name.contains('.')
                && (canon.starts_with("func.") || &*canon == "constant")
            {
                self.check_default_dialect(name, name_pos)?;
            }
            let hooks = self.hooks;
            self.custom_parents.push(sym);
            self.op_name_pos = name_pos;
            let parsed = match parse {
                Some(parse) => parse(self, &mut st, total).map(|()| true),
                None => hooks.parse_custom(&canon, self, &mut st, total, name_pos),
            };
            self.custom_parents.pop();
            if !parsed? {
                return self.err(name_pos, format!("custom op '{name}' is unknown"));
            }
            if st.attrs.len() > 1 {
                if let Some(dup) = duplicate_attr(&st.attrs) {
                    let op_name =
                        crate::edition::generic_name(&canon, self.seen.unwrap_or(Edition::V15));
                    let m = format!(
                        "custom op '{op_name}' attribute '{}' occurs more than once in the attribute list",
                        self.ctx.str(dup)
                    );
                    return self.err(name_pos, m);
                }
            }
            nres = st.result_types.len();
            let op = self.ctx.create_op_from(
                st.name,
                st.loc,
                &st.operands,
                &st.result_types,
                &st.attrs,
                &st.regions,
                &st.successors,
            );
            st.operands.clear();
            st.result_types.clear();
            st.attrs.clear();
            st.regions.clear();
            st.successors.clear();
            self.free_states.push(st);
            op
        };
        self.parse_trailing_loc(op)?;
        if nres == 0 && has_names {
            return self.err(start, "cannot name an operation with no results");
        }
        if total != nres && has_names {
            let n = self.ctx.name(op).to_string();
            return self
                .err(
                    start,
                    format!("operation defines {nres} results but was provided {total} to bind"),
                )
                .map_err(|mut e| {
                    let _ = n;
                    e.pos = start;
                    e
                });
        }
        if let Some((name, p)) = one {
            let v = self.ctx.result(op, 0);
            self.define_name(name, &[v], p)?;
            return Ok(op);
        }
        let mut i = 0;
        for k in names_at..self.result_names.len() {
            let (name, count, p) = self.result_names[k];
            if count == 1 {
                let v = self.ctx.result(op, i);
                self.define_name(name, &[v], p)?;
            } else {
                let vals = self.ctx.results(op)[i..i + count].to_vec();
                self.define_name(name, &vals, p)?;
            }
            i += count;
        }
        self.result_names.truncate(names_at);
        Ok(op)
    }

    /// `%name =` at `pos` (a `%`): the name and where it stands, consumed
    /// with the `=`. `None` for anything else (a list, a result count,
    /// an error), with nothing consumed.
    #[inline]
    fn single_result_name(&mut self) -> Option<(Name<'a>, usize)> {
        let p = self.pos;
        let (s, e) = (p + 1, self.suffix_end(p + 1));
        if e == s {
            return None;
        }
        self.pos = e;
        if self.eat_byte(b'=') {
            let name = Name {
                hash: hash_range(self.b, s, e),
                s: &self.src[s..e],
            };
            return Some((name, p));
        }
        self.pos = p;
        None
    }

    /// The result list of an op (`%a, %b:2 =`) onto `result_names`.
    #[inline(never)]
    fn parse_result_names(&mut self) -> PResult<()> {
        loop {
            self.skip_ws();
            let p = self.pos;
            if self.peek() != b'%' {
                return self.err_here("expected SSA value name");
            }
            self.pos += 1;
            let ns = self.pos;
            let name = self.suffix_id();
            if name.is_empty() {
                return self.err(p, "expected valid SSA identifier");
            }
            let name = Name {
                hash: hash_range(self.b, ns, self.pos),
                s: name,
            };
            let mut count = 1;
            if self.eat(":") {
                match self.int_lit() {
                    Some(n) if (1..1 << 20).contains(&n) => count = n as usize,
                    _ => return self.err_here("expected integer number of results"),
                }
            }
            self.result_names.push((name, count, p));
            if !self.eat(",") {
                break;
            }
        }
        if !self.eat("=") {
            return self.err_here("expected '=' after SSA name");
        }
        Ok(())
    }

    /// In the 15 syntax, `call`, `return`, `constant` and `call_indirect`
    /// are only short for `func.*` directly in a `func.func` body, where
    /// `func` is the default dialect; anywhere else mlir-opt-15 does not
    /// know them.
    #[cold]
    fn check_default_dialect(&self, name: &str, name_pos: usize) -> PResult<()> {
        let default = match self.custom_parents.last() {
            None => "builtin",
            Some(_) if self.in_func_body() => return Ok(()),
            Some(&p) => match self.ctx.str(p) {
                "builtin.module" => "builtin",
                _ => "",
            },
        };
        self.err(
            name_pos,
            format!("custom op '{name}' is unknown (tried '{default}.{name}' as well)"),
        )
    }

    /// Is the op being parsed directly in a module body (or at the top)?
    fn in_module_body(&self) -> bool {
        self.custom_parents
            .last()
            .is_none_or(|&p| self.ctx.str(p) == "builtin.module")
    }

    /// The default dialect 15 tries for a bare name here: that of the
    /// innermost op read in its custom form (only those set one).
    fn default_dialect(&self) -> &'static str {
        match self.custom_parents.last().map(|&p| self.ctx.str(p)) {
            None | Some("builtin.module") => "builtin",
            Some("func.func") => "func",
            Some(_) => "",
        }
    }

    /// What 14 or 15 say of a bare builtin op name outside a module body.
    pub fn bare_builtin_error(name: &str, default: &str, ed: Edition) -> String {
        if ed == Edition::V15 {
            format!("custom op '{name}' is unknown (tried '{default}.{name}' as well)")
        } else {
            format!("custom op '{name}' is unknown")
        }
    }

    /// Is the op being parsed directly in a `func.func` body?
    fn in_func_body(&self) -> bool {
        self.custom_parents
            .last()
            .is_some_and(|&p| self.ctx.str(p) == "func.func")
    }

    /// The canonical name, its symbol and the edition a custom op name
    /// betrays, remembered per spelling: a module spells the same few
    /// dozen names over and over.
    ///
    /// Reads the name at `self.pos` (the op name position). A name seen
    /// before is recognized by comparing the words at the position with
    /// its bytes, without scanning the identifier or hashing it.
    fn custom_op_name(&mut self) -> Option<OpName<'a>> {
        let (b, pos) = (self.b, self.pos);
        let avail = b.len() - pos;
        let w0 = word_at(b, pos, avail.min(8));
        let w1 = if avail > 8 {
            word_at(b, pos + 8, (avail - 8).min(8))
        } else {
            0
        };
        let long = if avail >= 8 {
            &self.op_buckets[op_bucket(w0)]
        } else {
            &self.op_buckets[0][..0]
        };
        let short = &self.op_buckets[OP_BUCKETS + op_bucket(w0 & 0xffff)];
        for &i in long.iter().chain(short) {
            let e = &self.op_entries[i as usize];
            if w0 & e.mask0 == e.key0
                && w1 & e.mask1 == e.key1
                && (e.tail.is_empty() || b.get(pos + 16..pos + e.len) == Some(&e.tail[..]))
                && !b.get(pos + e.len).is_some_and(|&c| is_id_char(c))
            {
                self.pos += e.len;
                return Some(OpName {
                    name: &self.src[pos..pos + e.len],
                    canon: e.canon.clone(),
                    sym: e.sym,
                    ed: e.ed,
                    parse: e.parse,
                });
            }
        }
        let name = self.ident()?;
        let (canon, ed) = canonical_name_cow(name);
        let sym = self.ctx.sym(&canon);
        let canon: Rc<str> = canon.into();
        let parse = self.hooks.custom_parser(sym);
        let n = name.len();
        // One-byte names are not kept: the bucket of a short name is
        // chosen by its first two bytes, of a long one by eight.
        if n >= 2 {
            let mask = |k: usize| if k >= 8 { !0u64 } else { (1u64 << (8 * k)) - 1 };
            let (mask0, mask1) = (mask(n), mask(n.saturating_sub(8)));
            let entry = OpNameEntry {
                len: n,
                key0: w0 & mask0,
                mask0,
                key1: w1 & mask1,
                mask1,
                tail: name.as_bytes().get(16..).unwrap_or(&[]).into(),
                canon: canon.clone(),
                sym,
                ed,
                parse,
            };
            let i = self.op_entries.len() as u32;
            self.op_entries.push(entry);
            let k = if n >= 8 {
                op_bucket(w0)
            } else {
                OP_BUCKETS + op_bucket(w0 & 0xffff)
            };
            self.op_buckets[k].push(i);
        }
        Some(OpName {
            name,
            canon,
            sym,
            ed,
            parse,
        })
    }

    fn parse_trailing_loc(&mut self, op: Op) -> PResult<()> {
        if self.peek() == b'l' && self.peek_ident() == Some("loc") && self.peek_after_ident_is(b'(')
        {
            let p = self.pos;
            let l = self.parse_location_body_or_alias(op, p)?;
            if let Some(l) = l {
                self.ctx.op_mut(op).loc = l;
            }
        }
        Ok(())
    }
    fn peek_after_ident_is(&mut self, c: u8) -> bool {
        let save = self.pos;
        let ok = self.ident().is_some() && self.peek() == c;
        self.pos = save;
        ok
    }
    fn parse_location_body_or_alias(&mut self, op: Op, p: usize) -> PResult<Option<Location>> {
        let save = self.pos;
        self.expect_keyword("loc")?;
        self.expect("(")?;
        if self.peek() == b'#' {
            self.pos += 1;
            let name = self.suffix_id().to_string();
            self.expect(")")?;
            self.pending_loc_aliases.push((op, name, p));
            return Ok(None);
        }
        self.pos = save;
        Ok(Some(self.parse_location_body()?))
    }
    fn resolve_loc_aliases(&mut self) -> PResult<()> {
        for (op, name, p) in std::mem::take(&mut self.pending_loc_aliases) {
            match self.loc_aliases.get(&name) {
                Some(&l) => self.ctx.op_mut(op).loc = l,
                None => return self.err(p, "operation location alias was never defined"),
            }
        }
        Ok(())
    }
    /// `loc(...)`.
    pub fn parse_location_body(&mut self) -> PResult<Location> {
        self.expect_keyword("loc")?;
        self.expect("(")?;
        let l = self.parse_location_inner()?;
        self.expect(")")?;
        Ok(l)
    }
    fn parse_location_inner(&mut self) -> PResult<Location> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err_here("nesting too deep")
        } else {
            self.parse_location_inner_nested()
        };
        self.depth -= 1;
        r
    }

    fn parse_location_inner_nested(&mut self) -> PResult<Location> {
        if self.eat_keyword("unknown") {
            return Ok(self.ctx.unknown_loc());
        }
        if self.eat_keyword("callsite") {
            self.expect("(")?;
            let a = self.parse_location_inner()?;
            self.expect_keyword("at")?;
            let b = self.parse_location_inner()?;
            self.expect(")")?;
            return Ok(self.ctx.loc(LocKind::CallSite(a, b)));
        }
        if self.eat_keyword("fused") {
            let meta = if self.eat("<") {
                let a = self.parse_attribute(None)?;
                self.expect(">")?;
                Some(a)
            } else {
                None
            };
            self.expect("[")?;
            let mut ls = vec![];
            if !self.eat("]") {
                loop {
                    ls.push(self.parse_location_inner()?);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect("]")?;
            }
            return Ok(self.ctx.loc(LocKind::Fused(ls, meta)));
        }
        if self.peek() == b'"' {
            let s = self.string_lit()?;
            if self.eat(":") {
                let Some(line) = self.int_lit() else {
                    return self.err_here("expected integer line number in FileLineColLoc");
                };
                self.expect(":")?;
                let Some(col) = self.int_lit() else {
                    return self.err_here("expected integer column number in FileLineColLoc");
                };
                let f = self.ctx.sym(&s);
                return Ok(self
                    .ctx
                    .loc(LocKind::FileLineCol(f, line as u32, col as u32)));
            }
            let child = if self.eat("(") {
                let c = self.parse_location_inner()?;
                self.expect(")")?;
                Some(c)
            } else {
                None
            };
            let n = self.ctx.sym(&s);
            return Ok(self.ctx.loc(LocKind::Name(n, child)));
        }
        if self.peek() == b'#' {
            let p = self.pos;
            self.pos += 1;
            let name = self.suffix_id().to_string();
            return match self.loc_aliases.get(&name) {
                Some(&l) => Ok(l),
                None => self.err(p, "location alias was never defined"),
            };
        }
        self.err_here("expected location instance")
    }

    /// `"name"(%ops)[^succ] ({regions}) {attrs} : (T) -> U`
    fn parse_generic_op(&mut self, spelled: &str, loc: Location, name_pos: usize) -> PResult<Op> {
        let (canon, ed) = canonical_name(spelled);
        if let Some(e) = ed {
            self.note_edition(e);
        }
        if spelled == "builtin.func" || spelled.starts_with("std.") {
            self.saw_legacy_func = true;
        }
        let name = self.ctx.sym(&canon);
        let registered = self.ctx.is_registered(name);
        // An op the parser does not know, of a dialect it knows, is the
        // verifier's to reject (unless its dialect allows unknown ops, as
        // `llvm` does), as in mlir-opt; of another dialect, the parser's.
        let known_dialect = canon
            .split_once('.')
            .is_some_and(|(d, _)| self.hooks.knows_every_op_of(d));
        if !registered && !self.allow_unregistered && !known_dialect {
            return self.err(
                name_pos,
                "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
            );
        }
        self.expect("(")?;
        let mut operands = vec![];
        if !self.eat(")") {
            loop {
                operands.push(self.parse_operand_ref()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
        }
        let mut succs = vec![];
        if self.eat("[") {
            loop {
                succs.push(self.parse_successor()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("]")?;
        }
        let isolated = self
            .ctx
            .op_traits(name)
            .map(|t| t.isolated_from_above)
            .unwrap_or(false);
        let mut regions = vec![];
        let save = self.pos;
        if self.eat("(") {
            if self.peek() == b'{' {
                loop {
                    regions.push(self.parse_region(&[], isolated)?);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(")")?;
            } else {
                self.pos = save;
            }
        }
        let mut attrs = vec![];
        if self.peek() == b'{' {
            attrs = self.parse_attr_dict()?;
        }
        self.expect(":")?;
        let tpos = self.pos;
        let ft = self.parse_type()?;
        let TypeKind::Function(ins, outs) = self.ctx.kind(ft).clone() else {
            return self.err(tpos, "expected function type");
        };
        if ins.len() != operands.len() {
            return self.err(
                tpos,
                format!(
                    "expected {} operand type{} but had {}",
                    operands.len(),
                    if operands.len() == 1 { "" } else { "s" },
                    ins.len()
                ),
            );
        }
        // 13's `std.constant` is `arith.constant` unless it names a
        // function.
        let mut name = name;
        if spelled == "std.constant" {
            let value = self.ctx.lookup_sym("value");
            let is_fn = attrs.iter().any(|&(k, a)| {
                Some(k) == value && matches!(self.ctx.attr_kind(a), AttrKind::SymbolRef(..))
            });
            if !is_fn {
                self.note_edition(Edition::V13);
                name = self.ctx.sym("arith.constant");
            }
        }
        let mut st = OperationState::new(name, loc);
        for (u, t) in operands.iter().zip(ins) {
            st.operands.push(self.resolve_operand(u, t)?);
        }
        st.result_types = outs;
        if canon == "func.func" {
            // 13 and 14 named the signature attribute `type`.
            if let (Some(ty), None) = (
                self.ctx.lookup_sym("type"),
                self.ctx
                    .lookup_sym("function_type")
                    .filter(|k| attrs.iter().any(|(a, _)| a == k)),
            ) {
                let ft = self.ctx.sym("function_type");
                for (k, _) in attrs.iter_mut() {
                    if *k == ty {
                        *k = ft;
                    }
                }
                self.ctx.sort_attrs(&mut attrs);
            }
        }
        // The op sorts its attributes when created.
        let hooks = self.hooks;
        hooks.canonicalize_generic_attrs(&canon, self, &mut attrs, operands.len());
        st.attrs = attrs;
        st.regions = regions;
        st.successors = succs;
        Ok(self.ctx.create_op(st))
    }

    // ----- values -----

    /// `%name` or `%name#3`. Inlined: every operand of every op is read
    /// here, and the common `%name` is a scan and a hash.
    #[inline]
    pub fn parse_operand_ref(&mut self) -> PResult<UnresolvedOperand<'a>> {
        self.skip_ws();
        let pos = self.pos;
        let (s, e) = (pos + 1, self.suffix_end(pos + 1));
        if self.b.get(pos) != Some(&b'%') || e == s || self.b.get(e) == Some(&b'#') {
            return self.parse_operand_ref_slow();
        }
        self.pos = e;
        Ok(UnresolvedOperand {
            name: &self.src[s..e],
            index: 0,
            pos,
            hash: hash_range(self.b, s, e),
        })
    }
    /// [`Parser::parse_operand_ref`] of a result number (`%name#3`), and
    /// its errors.
    #[cold]
    #[inline(never)]
    fn parse_operand_ref_slow(&mut self) -> PResult<UnresolvedOperand<'a>> {
        self.skip_ws();
        let pos = self.pos;
        if self.b.get(pos) != Some(&b'%') {
            return self.err_here("expected SSA operand");
        }
        self.pos += 1;
        let name = self.suffix_id();
        if name.is_empty() {
            return self.err(pos, "expected SSA operand");
        }
        let hash = hash_range(self.b, pos + 1, self.pos);
        let mut index = 0;
        if self.b.get(self.pos) == Some(&b'#') {
            self.pos += 1;
            match self.int_lit() {
                Some(i) if i >= 0 => index = i as usize,
                _ => return self.err_here("expected integer"),
            }
        }
        Ok(UnresolvedOperand {
            name,
            index,
            pos,
            hash,
        })
    }
    #[inline]
    pub fn peek_operand(&mut self) -> bool {
        self.peek() == b'%'
    }
    /// Parses `%a, %b, ...` (possibly empty).
    pub fn parse_operand_list(&mut self) -> PResult<Vec<UnresolvedOperand<'a>>> {
        let mut v = vec![];
        if !self.peek_operand() {
            return Ok(v);
        }
        loop {
            v.push(self.parse_operand_ref()?);
            if !self.eat_byte(b',') {
                break;
            }
        }
        Ok(v)
    }

    /// [`Parser::parse_operand_list`] onto the parser's stack of pending
    /// operands instead of a `Vec` of its own: returns the mark where the
    /// list starts. Resolve (or drop) them with `resolve_pending*` before
    /// parsing anything that may hold operands of its own (a region).
    pub fn parse_operand_list_pending(&mut self) -> PResult<usize> {
        let mark = self.pending_operands.len();
        if !self.peek_operand() {
            return Ok(mark);
        }
        loop {
            let u = self.parse_operand_ref()?;
            self.pending_operands.push(u);
            if !self.eat_byte(b',') {
                break;
            }
        }
        Ok(mark)
    }
    /// Pushes one operand reference onto the pending stack; returns its mark.
    #[inline]
    pub fn parse_operand_pending(&mut self) -> PResult<usize> {
        let mark = self.pending_operands.len();
        let u = self.parse_operand_ref()?;
        self.pending_operands.push(u);
        Ok(mark)
    }
    /// The pending operands from `mark` on.
    pub fn pending(&self, mark: usize) -> &[UnresolvedOperand<'a>] {
        &self.pending_operands[mark..]
    }
    /// Resolves the pending operands from `mark` on, all of type `ty`,
    /// appending them to `out`, and pops them.
    pub fn resolve_pending_same(
        &mut self,
        mark: usize,
        ty: Type,
        out: &mut Vec<Value>,
    ) -> PResult<()> {
        for i in mark..self.pending_operands.len() {
            if let Some(v) = self.resolve_defined(&self.pending_operands[i], ty) {
                out.push(v);
                continue;
            }
            let u = self.pending_operands[i];
            match self.resolve_operand(&u, ty) {
                Ok(v) => out.push(v),
                Err(e) => {
                    self.pending_operands.truncate(mark);
                    return Err(e);
                }
            }
        }
        self.pending_operands.truncate(mark);
        Ok(())
    }
    /// Resolves the pending operands from `mark` on one for one against
    /// `tys` (same length: the caller checks), appending to `out`.
    pub fn resolve_pending(
        &mut self,
        mark: usize,
        tys: &[Type],
        out: &mut Vec<Value>,
    ) -> PResult<()> {
        for (i, &t) in (mark..self.pending_operands.len()).zip(tys) {
            let u = self.pending_operands[i];
            match self.resolve_operand(&u, t) {
                Ok(v) => out.push(v),
                Err(e) => {
                    self.pending_operands.truncate(mark);
                    return Err(e);
                }
            }
        }
        self.pending_operands.truncate(mark);
        Ok(())
    }
    /// Drops the pending operands from `mark` on.
    pub fn drop_pending(&mut self, mark: usize) {
        self.pending_operands.truncate(mark);
    }
    /// Parses `T, U, ...` onto the parser's stack of pending types;
    /// returns the mark where the list starts. See [`Parser::pending_types`].
    pub fn parse_type_list_pending(&mut self) -> PResult<usize> {
        let mark = self.pending_types.len();
        loop {
            let t = self.parse_type()?;
            self.pending_types.push(t);
            if !self.eat_byte(b',') {
                break;
            }
        }
        Ok(mark)
    }
    /// Pushes one type onto the pending types (see
    /// [`Parser::parse_type_list_pending`]).
    pub fn push_pending_type(&mut self, t: Type) {
        self.pending_types.push(t);
    }
    /// The pending types from `mark` on.
    pub fn pending_types(&self, mark: usize) -> &[Type] {
        &self.pending_types[mark..]
    }
    /// Resolves the pending operands from `omark` on against the pending
    /// types from `tmark` on (same number), appending to `out`, and pops
    /// both.
    pub fn resolve_pending_typed(
        &mut self,
        omark: usize,
        tmark: usize,
        out: &mut Vec<Value>,
    ) -> PResult<()> {
        let mut r = Ok(());
        for (i, j) in (omark..self.pending_operands.len()).zip(tmark..self.pending_types.len()) {
            let (u, t) = (self.pending_operands[i], self.pending_types[j]);
            match self.resolve_operand(&u, t) {
                Ok(v) => out.push(v),
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        self.pending_operands.truncate(omark);
        self.pending_types.truncate(tmark);
        r
    }
    /// Drops the pending types from `mark` on.
    pub fn drop_pending_types(&mut self, mark: usize) {
        self.pending_types.truncate(mark);
    }

    /// The symbol of a name custom parsers ask for at every op, remembered
    /// by the address of the literal instead of hashing its text.
    pub fn static_sym(&mut self, s: &'static str) -> Symbol {
        let key = (s.as_ptr() as usize, s.len());
        if let Some(&y) = self.static_syms.get(&key) {
            return y;
        }
        let y = self.ctx.sym(s);
        self.static_syms.insert(key, y);
        y
    }

    /// An attribute remembered under (`tag`, `key`): `make` builds it the
    /// first time. For attributes a custom form derives from a few small
    /// numbers at every op (segment sizes), whose interning allocates and
    /// hashes a kind each time.
    pub fn memo_attr(
        &mut self,
        tag: &'static str,
        key: u64,
        make: impl FnOnce(&mut Context) -> Attribute,
    ) -> Attribute {
        let k = (tag.as_ptr() as usize, key);
        if let Some(&a) = self.attr_memo.get(&k) {
            return a;
        }
        let a = make(self.ctx);
        self.attr_memo.insert(k, a);
        a
    }

    /// The hash of an SSA name (without `%`), fast where the name is a
    /// slice of the source (it is for every name read from the text).
    fn name_of<'n>(&self, name: &'n str) -> Name<'n> {
        let base = self.src.as_ptr() as usize;
        let p = name.as_ptr() as usize;
        let hash = if p >= base && p + name.len() <= base + self.src.len() {
            hash_range(self.b, p - base, p - base + name.len())
        } else {
            hash_range(name.as_bytes(), 0, name.len())
        };
        Name { hash, s: name }
    }

    #[inline]
    fn lookup_value(&self, key: &Name<'a>) -> Option<&[Value]> {
        match self.bindings.get(key).map(|s| &s.b) {
            Some(b) if b.scope as usize >= self.isolated_at && self.live(b) => {
                Some(match &b.bound {
                    Bound::One(v) => std::slice::from_ref(v),
                    &Bound::Many(s, n) => &self.many_values[s as usize..(s + n) as usize],
                })
            }
            _ => None,
        }
    }

    /// Is a binding's scope still open?
    #[inline]
    fn live(&self, b: &Binding) -> bool {
        self.scopes
            .get(b.scope as usize)
            .is_some_and(|s| s.uid == b.uid)
    }

    /// Where a name was defined, from its key (a slice of the source).
    fn key_def_pos(&self, k: &str) -> Option<usize> {
        let base = self.src.as_ptr() as usize;
        let p = k.as_ptr() as usize;
        (p > base && p <= base + self.src.len()).then(|| p - base - 1)
    }

    /// Where `name` was defined.
    fn def_pos(&self, key: &Name<'a>) -> Option<usize> {
        let k = self.bindings.get(key)?.key;
        self.key_def_pos(k.s)
    }

    /// An error with a note at another position (when known).
    fn err_noted<T>(&self, pos: usize, msg: String, note: Option<(usize, &str)>) -> PResult<T> {
        Err(Box::new(ParseError {
            pos,
            message: msg,
            notes: note
                .map(|(p, m)| vec![(p, m.to_string())])
                .unwrap_or_default(),
            wrong_token: false,
        }))
    }

    fn push_scope(&mut self, isolated: bool) {
        let uid = self.next_uid;
        self.next_uid = uid.wrapping_add(1);
        self.scopes.push(Scope {
            log_start: self.defined,
            uid,
            many_start: self.many_values.len(),
            shadow_start: self.shadowed.len(),
            isolated,
            forward: NameMap::default(),
        });
        if isolated {
            self.isolated_at = self.scopes.len() - 1;
        }
    }

    /// Closes the innermost scope, dropping its bindings.
    fn pop_scope(&mut self) -> Scope<'a> {
        let s = self.scopes.pop().expect("scope open");
        if s.log_start == 0 {
            // No name outlives this scope (a function's body): forget
            // them all at once, keeping the table's capacity.
            self.bindings.clear();
        }
        // Otherwise this scope's bindings stay behind, stale.
        self.defined = s.log_start;
        self.many_values.truncate(s.many_start);
        while self.shadowed.len() > s.shadow_start {
            let (name, b) = self.shadowed.pop().expect("non-empty");
            // The name's slot is there: the shadowing binding holds it.
            if let (i, true) = self.bindings.entry(&name) {
                self.bindings.slots[i].b = b;
            }
        }
        if s.isolated {
            self.isolated_at = self.scopes.iter().rposition(|s| s.isolated).unwrap_or(0);
        }
        s
    }

    /// The value of an operand reference to a single value defined in a
    /// visible scope, if it has type `ty`: `resolve_operand`'s common
    /// case, without its errors or forward references.
    #[inline(always)]
    fn resolve_defined(&self, u: &UnresolvedOperand<'a>, ty: Type) -> Option<Value> {
        let key = Name {
            hash: u.hash,
            s: u.name,
        };
        let b = &self.bindings.get(&key)?.b;
        match b.bound {
            Bound::One(v)
                if u.index == 0
                    && b.scope as usize >= self.isolated_at
                    && self.live(b)
                    && self.ctx.value_type(v) == ty =>
            {
                Some(v)
            }
            _ => None,
        }
    }

    /// Resolves an operand reference to a value of type `ty`.
    #[inline]
    pub fn resolve_operand(&mut self, u: &UnresolvedOperand<'a>, ty: Type) -> PResult<Value> {
        let key = Name {
            hash: u.hash,
            s: u.name,
        };
        if let Some(vals) = self.lookup_value(&key) {
            if let Some(&v) = vals.get(u.index) {
                if self.ctx.value_type(v) == ty {
                    return Ok(v);
                }
            }
            return self.resolve_error(u, key, ty);
        }
        self.resolve_forward(u, key, ty)
    }

    /// The errors of `resolve_operand` for a defined name, out of line:
    /// the hot path saves no registers for them.
    #[cold]
    #[inline(never)]
    fn resolve_error(
        &mut self,
        u: &UnresolvedOperand<'a>,
        key: Name<'a>,
        ty: Type,
    ) -> PResult<Value> {
        let vals = self.lookup_value(&key).expect("defined");
        let Some(&v) = vals.get(u.index) else {
            return self.err(u.pos, "invalid SSA value result number");
        };
        let vt = self.ctx.value_type(v);
        let (a, b) = (
            crate::print_type(self.ctx, ty),
            crate::print_type(self.ctx, vt),
        );
        let note = self.def_pos(&key).map(|p| (p, "prior use here"));
        self.err_noted(
            u.pos,
            format!(
                "use of value '%{}' expects different type than prior uses: '{}' vs '{}'",
                u.name, a, b
            ),
            note,
        )
    }

    /// A use of a name not (yet) defined: a placeholder replaced once it is.
    #[inline(never)]
    fn resolve_forward(
        &mut self,
        u: &UnresolvedOperand<'a>,
        key: Name<'a>,
        ty: Type,
    ) -> PResult<Value> {
        let scope_idx = self.isolated_at;
        let known = self.scopes[scope_idx]
            .forward
            .get(&key)
            .and_then(|fs| fs.iter().find(|f| f.0 == u.index))
            .map(|f| f.1);
        if let Some(v) = known {
            let vt = self.ctx.value_type(v);
            if vt != ty {
                let (a, b) = (
                    crate::print_type(self.ctx, ty),
                    crate::print_type(self.ctx, vt),
                );
                return self.err(
                    u.pos,
                    format!(
                        "use of value '%{}' expects different type than prior uses: '{}' vs '{}'",
                        u.name, a, b
                    ),
                );
            }
            return Ok(v);
        }
        let loc = self.ctx.unknown_loc();
        let op = self
            .ctx
            .create_op_from(self.placeholder, loc, &[], &[ty], &[], &[], &[]);
        let v = self.ctx.result(op, 0);
        self.scopes[scope_idx]
            .forward
            .entry(key)
            .or_default()
            .push((u.index, v, u.pos));
        Ok(v)
    }

    /// Binds a name (a slice of the source) to values in the current scope.
    pub fn define_value(&mut self, name: &'a str, vals: &[Value], pos: usize) -> PResult<()> {
        let key = self.name_of(name);
        self.define_name(key, vals, pos)
    }

    /// An entry argument declared by a custom form (`%i` of `scf.for`, a
    /// function's `%arg`) whose name is taken gets mlir-opt's wording for
    /// that case rather than the one for an op result.
    fn define_region_arg(&mut self, name: &'a str, v: Value, pos: usize) -> PResult<()> {
        self.define_value(name, &[v], pos).map_err(|mut e| {
            if e.message.starts_with("redefinition of SSA value") {
                e.message = format!("region entry argument '%{name}' is already in use");
                for n in &mut e.notes {
                    n.1 = "previously referenced here".to_string();
                }
            }
            e
        })
    }

    #[inline]
    fn define_name(&mut self, key: Name<'a>, vals: &[Value], pos: usize) -> PResult<()> {
        let name = key.s;
        let scope_idx = self.isolated_at;
        // Most scopes never see a forward reference: skip the lookup.
        if !self.scopes[scope_idx].forward.is_empty() {
            if let Some(pending) = self.scopes[scope_idx].forward.remove(&key) {
                self.resolve_pending_forward(key, pending, vals, pos)?;
            }
        }
        let bound = if vals.len() == 1 {
            Bound::One(vals[0])
        } else {
            let start = self.many_values.len() as u32;
            self.many_values.extend_from_slice(vals);
            Bound::Many(start, vals.len() as u32)
        };
        let scope = self.scopes.len() as u32 - 1;
        let uid = self.scopes[scope as usize].uid;
        let new = Binding { scope, uid, bound };
        match self.bindings.entry(&key) {
            (i, false) => self.bindings.fill(i, key, new),
            (i, true) => {
                let slot = self.bindings.slots[i];
                if !self.live(&slot.b) {
                    // A stale binding: replaced with its key, which tells
                    // where the name is defined (see `def_pos`).
                    self.bindings.slots[i].key = key;
                    self.bindings.slots[i].b = new;
                } else {
                    // Live, even in a scope an isolated region hides:
                    // mlir-opt's names are one scope across function
                    // bodies (only ops asking for name shadowing open a
                    // fresh one, and none of ours do), so a module-level
                    // `%x` redefined in a function is an error there too.
                    return self.redefinition(name, slot.key.s, pos);
                }
            }
        }
        self.defined += 1;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn redefinition(&self, name: &str, prev: &str, pos: usize) -> PResult<()> {
        let note = self
            .key_def_pos(prev)
            .map(|p| (p, "previously defined here"));
        self.err_noted(pos, format!("redefinition of SSA value '%{name}'"), note)
    }

    /// Replaces the placeholders of forward uses of a name being defined.
    #[inline(never)]
    fn resolve_pending_forward(
        &mut self,
        key: Name<'a>,
        mut pending: Vec<(usize, Value, usize)>,
        vals: &[Value],
        pos: usize,
    ) -> PResult<()> {
        let name = key.s;
        let scope_idx = self.isolated_at;
        for (i, &v) in vals.iter().enumerate() {
            let Some(k) = pending.iter().position(|f| f.0 == i) else {
                continue;
            };
            let (_, ph, _) = pending.swap_remove(k);
            let (pt, vt) = (self.ctx.value_type(ph), self.ctx.value_type(v));
            if pt != vt {
                let (a, b) = (
                    crate::print_type(self.ctx, pt),
                    crate::print_type(self.ctx, vt),
                );
                let message = if vals.len() == 1 {
                    format!(
                        "definition of SSA value '%{name}' has type '{b}' but was used with type '{a}'"
                    )
                } else {
                    format!(
                        "definition of SSA value '%{name}#{i}' has type '{b}' but was used with type '{a}'"
                    )
                };
                return self.err(pos, message);
            }
            self.ctx.replace_all_uses_with(ph, v);
        }
        // Uses of result numbers this definition lacks stay pending
        // and are reported as undeclared when the scope closes.
        if !pending.is_empty() {
            self.scopes[scope_idx].forward.insert(key, pending);
        }
        Ok(())
    }

    fn finish_isolated_scope(&mut self) -> PResult<()> {
        let s = self.pop_scope();
        let first = s
            .forward
            .values()
            .flat_map(|fs| fs.iter().map(|f| f.2))
            .min();
        if let Some(pos) = first {
            return self.err(pos, "use of undeclared SSA value name");
        }
        Ok(())
    }

    // ----- blocks and regions -----

    fn block_ref(&mut self, name: &str, pos: usize) -> Block {
        let scope = self.block_scopes.last_mut().expect("block scope open");
        if let Some(&(b, _, _)) = scope.blocks.get(name) {
            return b;
        }
        let b = self.ctx.create_block(&[]);
        self.block_scopes
            .last_mut()
            .expect("block scope open")
            .blocks
            .insert(name.to_string(), (b, false, pos));
        b
    }

    /// `^bb3`
    pub fn parse_successor(&mut self) -> PResult<Block> {
        self.skip_ws();
        let pos = self.pos;
        if self.peek() != b'^' {
            return self.err_here("expected block name");
        }
        self.pos += 1;
        let name = self.suffix_id().to_string();
        if self.block_scopes.is_empty() {
            return self.err(pos, "branch outside of a region");
        }
        Ok(self.block_ref(&name, pos))
    }
    /// `^bb3(%a, %b : i32, f32)` or `^bb3`.
    pub fn parse_successor_and_args(&mut self) -> PResult<(Block, Vec<Value>)> {
        let b = self.parse_successor()?;
        let mut vals = vec![];
        if self.eat("(") {
            let ops = self.parse_operand_list()?;
            self.expect(":")?;
            let tys = self.parse_type_list_no_parens()?;
            self.expect(")")?;
            if ops.len() != tys.len() {
                return self.err_here("expected the same number of operands and types");
            }
            for (o, t) in ops.iter().zip(tys) {
                vals.push(self.resolve_operand(o, t)?);
            }
        }
        Ok((b, vals))
    }

    /// Parses `{ ... }` into a new region. `args` are the entry block's
    /// arguments declared by a custom form (`%x: T`); an explicit entry
    /// label `^bb0(...)` is accepted when `args` is empty.
    pub fn parse_region(&mut self, args: &[RegionArg<'a>], isolated: bool) -> PResult<Region> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err_here("nesting too deep")
        } else {
            self.parse_region_inner(args, isolated)
        };
        self.depth -= 1;
        r
    }

    fn parse_region_inner(&mut self, args: &[RegionArg<'a>], isolated: bool) -> PResult<Region> {
        self.expect("{")?;
        let region = self.ctx.create_region();
        self.push_scope(isolated);
        self.block_scopes.push(BlockScope {
            blocks: HashMap::default(),
        });
        if self.eat("}") {
            if !args.is_empty() {
                let b = self.ctx.create_block(&[]);
                self.ctx.append_block(region, b);
                for a in args {
                    let v = self.ctx.add_block_arg(b, a.ty);
                    let l = self.loc_at(a.pos);
                    self.ctx.set_value_loc(v, l);
                    self.define_region_arg(a.name, v, a.pos)?;
                }
            }
        } else {
            let mut cur: Block;
            if self.peek() == b'^' {
                if !args.is_empty() {
                    return self.err_here("invalid block name in region with named arguments");
                }
                cur = self.parse_block_header(region)?;
            } else {
                cur = self.ctx.create_block(&[]);
                self.ctx.append_block(region, cur);
                for a in args {
                    let v = self.ctx.add_block_arg(cur, a.ty);
                    let l = self.loc_at(a.pos);
                    self.ctx.set_value_loc(v, l);
                    self.define_region_arg(a.name, v, a.pos)?;
                }
            }
            loop {
                match self.peek() {
                    b'}' => {
                        self.pos += 1;
                        break;
                    }
                    b'^' => {
                        cur = self.parse_block_header(region)?;
                        continue;
                    }
                    // Where an op or `}` should stand, as MLIR says it.
                    0 if self.at_end() => {
                        return self.err_here("expected operation name in quotes")
                    }
                    _ => {}
                }
                let op = self.parse_operation()?;
                self.ctx.append_op(cur, op);
            }
        }
        self.pop_block_scope()?;
        if isolated {
            self.finish_isolated_scope()?;
        } else {
            // Forward references made in a nested non-isolated scope stay
            // with the enclosing isolated scope.
            self.pop_scope();
        }
        Ok(region)
    }

    fn parse_block_header(&mut self, region: Region) -> PResult<Block> {
        self.skip_ws();
        let pos = self.pos;
        self.pos += 1;
        let name = self.suffix_id().to_string();
        let b = self.block_ref(&name, pos);
        let entry = self
            .block_scopes
            .last_mut()
            .expect("block scope open")
            .blocks
            .get_mut(&name)
            .expect("just referenced");
        if entry.1 {
            return self.err(pos, format!("redefinition of block '^{name}'"));
        }
        entry.1 = true;
        self.ctx.append_block(region, b);
        if self.eat("(") && !self.eat(")") {
            loop {
                self.skip_ws();
                let ap = self.pos;
                let u = self.parse_operand_ref()?;
                self.expect(":")?;
                let t = self.parse_type()?;
                let v = self.ctx.add_block_arg(b, t);
                let l = if self.peek_ident() == Some("loc") {
                    self.parse_location_body()?
                } else {
                    self.loc_at(ap)
                };
                self.ctx.set_value_loc(v, l);
                self.define_value(u.name, &[v], ap)?;
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
        }
        self.expect(":")?;
        Ok(b)
    }

    // ----- types -----

    pub fn parse_type_list_no_parens(&mut self) -> PResult<Vec<Type>> {
        let mut v = vec![self.parse_type()?];
        while self.eat(",") {
            v.push(self.parse_type()?);
        }
        Ok(v)
    }
    /// [`Parser::parse_function_result_types`] appended to `out`.
    pub fn parse_function_result_types_into(&mut self, out: &mut Vec<Type>) -> PResult<()> {
        if self.peek() == b'(' {
            let v = self.parse_function_result_types()?;
            out.extend(v);
        } else {
            let t = self.parse_type()?;
            out.push(t);
        }
        Ok(())
    }
    /// `()`, `T` or `(T, U)`: a function result list.
    pub fn parse_function_result_types(&mut self) -> PResult<Vec<Type>> {
        if self.peek() == b'(' {
            let save = self.pos;
            // `(T) -> U` is a function type, not a parenthesized list.
            self.pos += 1;
            let mut v = vec![];
            if !self.eat(")") {
                v = self.parse_type_list_no_parens()?;
                self.expect(")")?;
            }
            if self.peek() == b'-' && self.peek_at(1) == b'>' {
                self.pos = save;
                return Ok(vec![self.parse_type()?]);
            }
            return Ok(v);
        }
        Ok(vec![self.parse_type()?])
    }

    #[inline]
    pub fn parse_type(&mut self) -> PResult<Type> {
        match self.parse_scalar_type() {
            Some(t) => Ok(t),
            None => self.parse_type_general(),
        }
    }
    /// [`Parser::parse_type`] of the common builtin scalar types (`f32`,
    /// `index`, `i64`), `None` (nothing consumed but whitespace) for any
    /// other: for callers that read a type at nearly every op, inlined
    /// where `parse_type` is a call.
    #[inline(always)]
    pub fn parse_scalar_type(&mut self) -> Option<Type> {
        // Only where the general path cannot reach the depth limit (it
        // reports the nesting at the type).
        if self.depth < MAX_DEPTH {
            self.skip_ws();
            return self.scalar_type_fast();
        }
        None
    }

    /// [`Parser::parse_type`] past its fast path, out of line: the common
    /// scalar types do not pay for this frame.
    #[inline(never)]
    fn parse_type_general(&mut self) -> PResult<Type> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err_here("nesting too deep")
        } else {
            self.parse_type_inner()
        };
        self.depth -= 1;
        r
    }

    /// Runs `f` one level of nesting deeper: a dialect's parser that
    /// recurses (a type inside a type) goes through here, so that deep
    /// input is a diagnostic (`nesting too deep`), never a stack overflow.
    pub fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err_here("nesting too deep")
        } else {
            f(self)
        };
        self.depth -= 1;
        r
    }

    fn parse_type_inner(&mut self) -> PResult<Type> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            b'(' => {
                self.pos += 1;
                let mut ins = vec![];
                if !self.eat(")") {
                    ins = self.parse_type_list_no_parens()?;
                    self.expect(")")?;
                }
                if !self.eat("->") {
                    return self.err_here("expected '->' in function type");
                }
                let outs = self.parse_function_result_types()?;
                return Ok(self.ctx.function_type(ins, outs));
            }
            b'!' => {
                self.pos += 1;
                let save = self.pos;
                let id = self.suffix_id();
                if !id.contains('.') && self.b.get(self.pos) != Some(&b'<') {
                    if let Some(&t) = self.type_aliases.get(id) {
                        return Ok(t);
                    }
                    return self.err(start, format!("undefined symbol alias id '{id}'"));
                }
                self.pos = save;
                let dialect = self.ident_no_dot();
                if dialect.is_empty() {
                    return self.err(start, "expected type");
                }
                return self.parse_dialect_type(dialect, start);
            }
            _ => {}
        }
        let Some(id) = self.peek_ident_no_dot() else {
            return self.err_here("expected non-function type");
        };
        if let Some(t) = self.scalar_type(id) {
            self.pos += id.len();
            return Ok(t);
        }
        let k = match id {
            "index" => TypeKind::Index,
            "f16" => TypeKind::F16,
            "bf16" => TypeKind::BF16,
            "f32" => TypeKind::F32,
            "f64" => TypeKind::F64,
            "f80" => TypeKind::F80,
            "f128" => TypeKind::F128,
            "none" => TypeKind::None,
            "memref" | "tensor" | "vector" | "tuple" | "complex" => {
                self.pos += id.len();
                return self.parse_builtin_shaped(id, start);
            }
            _ => {
                let (sign, rest) = if let Some(r) = id.strip_prefix("si") {
                    (Signedness::Signed, r)
                } else if let Some(r) = id.strip_prefix("ui") {
                    (Signedness::Unsigned, r)
                } else if let Some(r) = id.strip_prefix('i') {
                    (Signedness::Signless, r)
                } else {
                    return self.err_here("expected non-function type");
                };
                match rest.parse::<u32>() {
                    Ok(w)
                        if !rest.is_empty()
                            && w <= 16_777_215
                            && rest.bytes().all(|c| c.is_ascii_digit()) =>
                    {
                        TypeKind::Integer(w, sign)
                    }
                    _ => return self.err_here("expected non-function type"),
                }
            }
        };
        self.pos += id.len();
        Ok(self.ctx.ty(k))
    }
    /// `f16`, `f32`, `f64`, `index` and `iN` up to two digits at `pos`,
    /// read byte by byte without scanning an identifier: `None` for
    /// anything else (longer identifiers included), which `scalar_type`
    /// and the general path decide.
    #[inline]
    fn scalar_type_fast(&mut self) -> Option<Type> {
        let (b, p) = (self.b, self.pos);
        let at = |i: usize| b.get(p + i).copied().unwrap_or(0);
        let (slot, n) = match (at(0), at(1), at(2)) {
            (b'f', b'3', b'2') => (103, 3),
            (b'f', b'6', b'4') => (104, 3),
            (b'f', b'1', b'6') => (101, 3),
            (b'i', d @ b'1'..=b'9', e @ b'0'..=b'9') => {
                (((d - b'0') * 10 + (e - b'0')) as usize, 3)
            }
            (b'i', d @ b'0'..=b'9', _) => ((d - b'0') as usize, 2),
            (b'i', b'n', b'd') if at(3) == b'e' && at(4) == b'x' => (100, 5),
            _ => return None,
        };
        // The identifier must end here (`i32x` is no `i32`).
        let c = at(n);
        if c.is_ascii_alphanumeric() || c == b'_' {
            return None;
        }
        self.pos = p + n;
        Some(self.scalar_type_slot(slot))
    }

    /// The common builtin scalar types (`index`, floats, `iN` up to two
    /// digits without a leading zero), remembered per spelling: `None`
    /// for anything else, which the general path decides.
    fn scalar_type(&mut self, id: &str) -> Option<Type> {
        let slot = match id.as_bytes() {
            b"index" => 100,
            b"f16" => 101,
            b"bf16" => 102,
            b"f32" => 103,
            b"f64" => 104,
            b"f80" => 105,
            b"f128" => 106,
            b"none" => 107,
            [b'i', d @ b'0'..=b'9'] => (d - b'0') as usize,
            [b'i', d @ b'1'..=b'9', e @ b'0'..=b'9'] => ((d - b'0') * 10 + (e - b'0')) as usize,
            _ => return None,
        };
        Some(self.scalar_type_slot(slot))
    }

    /// The type of a `scalar_types` slot, interned the first time.
    fn scalar_type_slot(&mut self, slot: usize) -> Type {
        if let Some(t) = self.scalar_types[slot] {
            return t;
        }
        let kind = match slot {
            100 => TypeKind::Index,
            101 => TypeKind::F16,
            102 => TypeKind::BF16,
            103 => TypeKind::F32,
            104 => TypeKind::F64,
            105 => TypeKind::F80,
            106 => TypeKind::F128,
            107 => TypeKind::None,
            w => TypeKind::Integer(w as u32, Signedness::Signless),
        };
        let t = self.ctx.ty(kind);
        self.scalar_types[slot] = Some(t);
        t
    }

    /// `index` and `i1`: the types custom forms imply at nearly every op,
    /// without interning a kind each time.
    pub fn index_type(&mut self) -> Type {
        self.scalar_type_slot(100)
    }
    pub fn i1_type(&mut self) -> Type {
        self.scalar_type_slot(1)
    }

    fn peek_ident_no_dot(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let s = self.pos;
        if s >= self.b.len() || !is_id_start(self.b[s]) {
            return None;
        }
        let mut e = s + 1;
        while e < self.b.len() && (self.b[e].is_ascii_alphanumeric() || self.b[e] == b'_') {
            e += 1;
        }
        Some(&self.src[s..e])
    }
    fn ident_no_dot(&mut self) -> &'a str {
        let s = self.pos;
        let mut e = s;
        while e < self.b.len() && (self.b[e].is_ascii_alphanumeric() || self.b[e] == b'_') {
            e += 1;
        }
        self.pos = e;
        &self.src[s..e]
    }
    /// Text up to the matching `>`, starting just after a `<`.
    fn balanced_body(&mut self, start: usize) -> PResult<&'a str> {
        let s = self.pos;
        let mut depth = 1;
        while self.pos < self.b.len() {
            match self.b[self.pos] {
                b'<' if self.b.get(self.pos + 1) == Some(&b'=') => {}
                b'<' | b'(' | b'[' | b'{' => depth += 1,
                b'>' if self.pos > 0 && self.b[self.pos - 1] == b'-' => {}
                // `>=` and `<=` of affine set constraints.
                b'>' if self.b.get(self.pos + 1) == Some(&b'=') => {}
                b'>' | b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        let body = &self.src[s..self.pos];
                        self.pos += 1;
                        return Ok(body);
                    }
                }
                b'"' => {
                    self.string_lit()?;
                    continue;
                }
                _ => {}
            }
            self.pos += 1;
        }
        self.err(start, "unbalanced '<' character in pretty dialect name")
    }

    /// An attribute or type of a dialect no one registered: MLIR builds it
    /// as opaque (`#"foo"<"body">`) and then refuses it, unless asked to
    /// allow unregistered dialects. `start` is the sigil, `after` the end of
    /// the dialect name (a `.` or `<`); the parser stands after the symbol.
    /// The wording and the position follow the generation: 13 does not
    /// quote the dialect; 13 and 14 read `<...>` as a string literal and
    /// point into it, 15 takes it verbatim and points at the sigil.
    #[cold]
    fn unregistered_dialect_symbol<T>(
        &self,
        sigil: char,
        dialect: &str,
        start: usize,
        after: usize,
    ) -> PResult<T> {
        let ed = self.seen.unwrap_or(if self.saw_legacy_func {
            Edition::V14
        } else {
            Edition::V15
        });
        let (pos, body) = if self.b.get(after) == Some(&b'.') {
            (after + 1, &self.src[after + 1..self.pos])
        } else {
            // `<...>`: the text between the angle brackets.
            let inner = &self.src[after + 1..self.pos.saturating_sub(1).max(after + 1)];
            if ed == Edition::V15 {
                (start, inner)
            } else if inner.len() >= 2 && inner.starts_with('"') && inner.ends_with('"') {
                (after + 2, &inner[1..inner.len() - 1])
            } else {
                return self.err(after + 1, "expected string literal data in dialect symbol");
            }
        };
        let d = if ed == Edition::V13 {
            dialect.to_string()
        } else {
            format!("\"{dialect}\"")
        };
        const TAIL: &str = "created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used";
        let message = if sigil == '#' {
            format!("#{d}<\"{body}\"> : 'none' attribute {TAIL}")
        } else {
            format!("`!{d}<\"{body}\">` type {TAIL}")
        };
        self.err(pos, message)
    }

    fn parse_dialect_type(&mut self, dialect: &str, start: usize) -> PResult<Type> {
        let hooks = self.hooks;
        if let Some(t) = hooks.parse_type(dialect, self, start)? {
            return Ok(t);
        }
        // Opaque dialect type: `!d.ident<...>` or `!d<...>`.
        let s = self.pos;
        if self.b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            while self.pos < self.b.len() && is_id_char(self.b[self.pos]) {
                self.pos += 1;
            }
        }
        if self.b.get(self.pos) == Some(&b'<') {
            self.pos += 1;
            self.balanced_body(start)?;
        }
        if !self.allow_unregistered && !self.hooks.is_known_dialect(dialect) {
            return self.unregistered_dialect_symbol('!', dialect, start, s);
        }
        let body = self.src[s..self.pos].to_string();
        let d = self.ctx.sym(dialect);
        Ok(self.ctx.ty(TypeKind::Opaque { dialect: d, body }))
    }

    /// `offset: N, strides: [S, ...]` (after `offset`), the strided layout
    /// 14 and 15 accept in a memref type: the map MLIR's
    /// `makeStridedLinearLayoutMap` builds, `?` becoming a new symbol
    /// (the offset's first, then each stride's).
    fn parse_strided_layout(&mut self) -> PResult<Attribute> {
        use mlir_async_ir::affine::{AffineExpr, AffineMap};
        let mut syms = 0;
        let term = |p: &mut Self, syms: &mut u32| -> PResult<AffineExpr> {
            p.skip_ws();
            if p.eat("?") {
                *syms += 1;
                return Ok(AffineExpr::Sym(*syms - 1));
            }
            let neg = p.eat("-");
            p.skip_ws();
            let s = p.pos;
            while p.pos < p.b.len() && p.b[p.pos].is_ascii_digit() {
                p.pos += 1;
            }
            let Ok(v) = p.src[s..p.pos].parse::<i64>() else {
                return p.err(s, "expected integer value or '?'");
            };
            Ok(AffineExpr::Const(if neg { -v } else { v }))
        };
        self.expect(":")?;
        let mut expr = term(self, &mut syms)?;
        self.expect(",")?;
        self.expect_keyword("strides")?;
        self.expect(":")?;
        self.expect("[")?;
        let mut dims = 0;
        if !self.eat("]") {
            loop {
                let at = self.pos;
                let stride = term(self, &mut syms)?;
                if stride == AffineExpr::Const(0) {
                    return self.err(at, "invalid memref stride");
                }
                expr = expr + AffineExpr::Dim(dims) * stride;
                dims += 1;
                if self.eat("]") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let map = AffineMap {
            num_dims: dims,
            num_syms: syms,
            results: vec![expr],
        };
        Ok(self
            .ctx
            .attr(AttrKind::Affine(format!("affine_map<{map}>"))))
    }

    /// Dimension list `4x?x8x` (up to the element type).
    fn parse_dims(&mut self, allow_dynamic: bool) -> PResult<Vec<Dim>> {
        let mut dims = vec![];
        loop {
            self.skip_ws();
            let c = self.b.get(self.pos).copied().unwrap_or(0);
            if c == b'?' && allow_dynamic {
                self.pos += 1;
                dims.push(None);
            } else if c.is_ascii_digit() {
                let s = self.pos;
                while self.pos < self.b.len() && self.b[self.pos].is_ascii_digit() {
                    self.pos += 1;
                }
                let Ok(d) = self.src[s..self.pos].parse::<i64>() else {
                    return self.err(s, "invalid dimension");
                };
                dims.push(Some(d));
            } else {
                return Ok(dims);
            }
            if self.b.get(self.pos) == Some(&b'x') {
                self.pos += 1;
            } else {
                return self.err_here("expected 'x' in dimension list");
            }
        }
    }

    fn parse_builtin_shaped(&mut self, kw: &str, start: usize) -> PResult<Type> {
        self.expect("<")?;
        let k = match kw {
            "tuple" => {
                let mut v = vec![];
                if !self.eat(">") {
                    v = self.parse_type_list_no_parens()?;
                    self.expect(">")?;
                }
                return Ok(self.ctx.ty(TypeKind::Tuple(v)));
            }
            "complex" => {
                let t = self.parse_type()?;
                TypeKind::Complex(t)
            }
            "vector" => {
                let dims = self.parse_dims(false)?;
                let shape: Vec<i64> = dims.into_iter().map(|d| d.unwrap_or(0)).collect();
                if shape.is_empty() {
                    return self.err(start, "expected dimension size in vector type");
                }
                let elem = self.parse_type()?;
                TypeKind::Vector {
                    shape,
                    scalable: 0,
                    elem,
                }
            }
            "tensor" | "memref" => {
                self.skip_ws();
                if self.b.get(self.pos) == Some(&b'*') {
                    self.pos += 1;
                    if !self.eat("x") {
                        return self.err_here("expected 'x' in unranked type");
                    }
                    let elem = self.parse_type()?;
                    if kw == "tensor" {
                        TypeKind::UnrankedTensor(elem)
                    } else {
                        let ms = if self.eat(",") {
                            Some(self.parse_attribute(None)?)
                        } else {
                            None
                        };
                        TypeKind::UnrankedMemRef {
                            elem,
                            memory_space: ms,
                        }
                    }
                } else {
                    let shape = self.parse_dims(true)?;
                    let elem = self.parse_type()?;
                    if kw == "tensor" {
                        let enc = if self.eat(",") {
                            Some(self.parse_attribute(None)?)
                        } else {
                            None
                        };
                        TypeKind::Tensor {
                            shape,
                            elem,
                            encoding: enc,
                        }
                    } else {
                        let mut layout = None;
                        let mut ms = None;
                        while self.eat(",") {
                            let a = if self.eat_keyword("offset") {
                                self.parse_strided_layout()?
                            } else {
                                self.parse_attribute(None)?
                            };
                            if matches!(self.ctx.attr_kind(a), AttrKind::Affine(_))
                                || matches!(self.ctx.attr_kind(a), AttrKind::Opaque(s) if s.starts_with("strided"))
                            {
                                // An identity map is no layout: MLIR's
                                // `MemRefType::get` drops it.
                                let identity = match self.ctx.attr_kind(a) {
                                    AttrKind::Affine(t) => t
                                        .strip_prefix("affine_map<")
                                        .and_then(|t| t.strip_suffix('>'))
                                        .and_then(|t| mlir_async_ir::affine::parse_map(t).ok())
                                        .is_some_and(|m| m.is_identity()),
                                    _ => false,
                                };
                                layout = if identity { None } else { Some(a) };
                            } else {
                                ms = Some(a);
                            }
                        }
                        TypeKind::MemRef {
                            shape,
                            elem,
                            layout,
                            memory_space: ms,
                        }
                    }
                }
            }
            _ => unreachable!("caller checks the keyword"),
        };
        self.expect(">")?;
        Ok(self.ctx.ty(k))
    }

    // ----- attributes -----

    /// `{name = attr, unit_name}`; entries come back sorted.
    pub fn parse_attr_dict(&mut self) -> PResult<Vec<(Symbol, Attribute)>> {
        self.expect("{")?;
        let mut v: Vec<(Symbol, Attribute)> = vec![];
        // Keys seen, once the list is too long to scan for a duplicate
        // at every key (200k attributes on one op were quadratic).
        let mut seen: Option<
            std::collections::HashSet<Symbol, mlir_async_ir::fxhash::FxBuildHasher>,
        > = None;
        if !self.eat("}") {
            loop {
                self.skip_ws();
                let p = self.pos;
                let name = if self.peek() == b'"' {
                    self.string_lit()?
                } else {
                    match self.ident() {
                        Some(n) => n.to_string(),
                        None => return self.err_here("expected attribute name"),
                    }
                };
                let a = if self.eat("=") {
                    self.parse_attribute(None)?
                } else {
                    self.ctx.unit_attr()
                };
                let s = self.ctx.sym(&name);
                let dup = match &mut seen {
                    Some(set) => !set.insert(s),
                    None if v.len() < 16 => v.iter().any(|(k, _)| *k == s),
                    None => {
                        let mut set: std::collections::HashSet<_, _> =
                            v.iter().map(|(k, _)| *k).collect();
                        let dup = !set.insert(s);
                        seen = Some(set);
                        dup
                    }
                };
                if dup {
                    return self.err(p, format!("duplicate key '{name}' in dictionary attribute"));
                }
                v.push((s, a));
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("}")?;
        }
        self.ctx.sort_attrs(&mut v);
        Ok(v)
    }
    /// `attributes {...}` or a bare `{...}` if present.
    pub fn parse_optional_attr_dict(&mut self) -> PResult<Vec<(Symbol, Attribute)>> {
        if self.peek() == b'{' {
            self.parse_attr_dict()
        } else {
            Ok(vec![])
        }
    }

    fn parse_typed_number(
        &mut self,
        v_int: Option<i128>,
        v_float: Option<f64>,
        ty: Option<Type>,
        p: usize,
    ) -> PResult<Attribute> {
        let ty = match ty {
            Some(t) => Some(t),
            None => {
                if self.eat(":") {
                    Some(self.parse_type()?)
                } else {
                    None
                }
            }
        };
        if let Some(f) = v_float {
            let t = match ty {
                Some(t) => t,
                None => self.ctx.ty(TypeKind::F64),
            };
            if !self.ctx.kind(t).is_float() {
                // Reported where the parser stands, past the type.
                self.skip_ws();
                let here = self.pos;
                return self.err(here, "floating point value not valid for specified type");
            }
            return Ok(self
                .ctx
                .attr(AttrKind::Float(round_to(self.ctx.kind(t), f).to_bits(), t)));
        }
        let i = v_int.expect("int or float");
        let t = match ty {
            Some(t) => t,
            None => self.ctx.int_type(64),
        };
        let k = self.ctx.kind(t).clone();
        if k.is_float() {
            // Only a hex literal (the bits) stands for a float: `1 : f32`
            // would otherwise be read as the bits 0x1, a tiny subnormal.
            let neg = self.b.get(p) == Some(&b'-');
            let digits = p + usize::from(neg);
            if !self.src[digits..].starts_with("0x") {
                return Err(Box::new(ParseError {
                    pos: digits,
                    message: "unexpected decimal integer literal for a floating point value".into(),
                    notes: vec![(
                        digits,
                        "add a trailing dot to make the literal a float".into(),
                    )],
                    wrong_token: false,
                }));
            }
            if neg {
                return self.err(
                    digits,
                    "hexadecimal float literal should not have a leading minus",
                );
            }
            let width = k.bit_width().unwrap_or(64);
            let bits = i as u128;
            // mlir-opt reads the bits as a 64-bit integer whatever the type.
            if i < 0 || bits >> 64 != 0 || (width < 64 && bits >> width != 0) {
                return self.err(p, "hexadecimal float constant out of range for type");
            }
            return Ok(self.ctx.attr(float_attr_from_bits(&k, bits, t)));
        }
        if !k.is_int_or_index() {
            return self.err(p, "integer literal not valid for specified type");
        }
        if let TypeKind::Integer(1, _) = k {
            if i != 0 && i != 1 && i != -1 {
                return self.err(p, "integer constant out of range for attribute");
            }
        }
        if let TypeKind::Integer(w, s) = k {
            if w < 128 && !fits(i, w, s) {
                return self.err(p, "integer constant out of range for attribute");
            }
        }
        Ok(self.ctx.attr(AttrKind::Integer(normalize_int(i, &k), t)))
    }

    /// An integer literal beyond `i128` (or a hexadecimal one beyond
    /// `i128::MAX`) of an integer type: checked against the type's range
    /// as MLIR checks it, kept as `Integer` up to 128 bits and as
    /// `WideInteger` beyond.
    fn parse_wide_number(
        &mut self,
        neg: bool,
        mag: &[u64],
        ty: Option<Type>,
        p: usize,
    ) -> PResult<Attribute> {
        let t = match ty {
            Some(t) => t,
            None if self.eat(":") => self.parse_type()?,
            None => self.ctx.int_type(64),
        };
        let k = self.ctx.kind(t).clone();
        let (w, signed) = match k {
            TypeKind::Integer(w, Signedness::Signless) => (w, None),
            TypeKind::Integer(w, Signedness::Signed) => (w, Some(true)),
            TypeKind::Integer(w, Signedness::Unsigned) => (w, Some(false)),
            TypeKind::Index => (64, None),
            _ if k.is_float() => {
                return self.err(p, "hexadecimal float constant out of range for type")
            }
            _ => return self.err(p, "integer literal not valid for specified type"),
        };
        if w == 0 || !wide::fits(neg, mag, w, signed) {
            return self.err(p, "integer constant out of range for attribute");
        }
        let bits = wide::to_bits(neg, mag, w);
        if w > 128 {
            return Ok(self.ctx.attr(AttrKind::WideInteger(bits, t)));
        }
        let lo = bits.first().copied().unwrap_or(0) as u128;
        let hi = bits.get(1).copied().unwrap_or(0) as u128;
        let v = (hi << 64 | lo) as i128;
        Ok(self.ctx.attr(AttrKind::Integer(normalize_int(v, &k), t)))
    }

    /// Any attribute; `ty` is a type already known from context (e.g. the
    /// result type of `arith.constant`), which suppresses `: type`.
    pub fn parse_attribute(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err_here("nesting too deep")
        } else {
            self.parse_attribute_inner(ty)
        };
        self.depth -= 1;
        r
    }

    fn parse_attribute_inner(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        self.skip_ws();
        let p = self.pos;
        let c = self.peek();
        if c == b'-' || c.is_ascii_digit() {
            if let Some(f) = self.float_lit() {
                return self.parse_typed_number(None, Some(f), ty, p);
            }
            if let Some(i) = self.int_lit() {
                return self.parse_typed_number(Some(i), None, ty, p);
            }
            if let Some((neg, mag)) = self.int_lit_wide() {
                return self.parse_wide_number(neg, &mag, ty, p);
            }
            return self.err(p, "expected attribute value");
        }
        match c {
            b'"' => {
                let s = self.string_lit_bytes()?;
                let t = if ty.is_none() && self.peek() == b':' && self.peek_at(1) != b':' {
                    self.pos += 1;
                    Some(self.parse_type()?)
                } else {
                    None
                };
                return Ok(self.ctx.attr(AttrKind::String(s, t)));
            }
            b'[' => {
                self.pos += 1;
                let mut v = vec![];
                if !self.eat("]") {
                    loop {
                        v.push(self.parse_attribute(None)?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect("]")?;
                }
                return Ok(self.ctx.attr(AttrKind::Array(v)));
            }
            b'{' => {
                let d = self.parse_attr_dict()?;
                return Ok(self.ctx.attr(AttrKind::Dictionary(d)));
            }
            b'@' => {
                let (root, nested) = self.parse_symbol_ref_parts()?;
                let r = self.ctx.sym(&root);
                let n = nested.iter().map(|s| self.ctx.sym(s)).collect();
                return Ok(self.ctx.attr(AttrKind::SymbolRef(r, n)));
            }
            b'#' => {
                self.pos += 1;
                let s = self.pos;
                let id = self.suffix_id();
                if !id.contains('.') && self.b.get(self.pos) != Some(&b'<') {
                    if let Some(&a) = self.attr_aliases.get(id) {
                        return Ok(a);
                    }
                    return self.err(p, format!("undefined symbol alias id '{id}'"));
                }
                if self.b.get(self.pos) == Some(&b'<') {
                    self.pos += 1;
                    self.balanced_body(p)?;
                }
                let dialect = id.split('.').next().unwrap_or(id);
                if !self.allow_unregistered && !self.hooks.is_known_dialect(dialect) {
                    return self.unregistered_dialect_symbol('#', dialect, p, s + dialect.len());
                }
                let text = format!("#{}", &self.src[s..self.pos]);
                return Ok(self.ctx.attr(AttrKind::Opaque(text)));
            }
            _ => {}
        }
        if c == b'(' || c == b'!' {
            let t = self.parse_type()?;
            return Ok(self.ctx.type_attr(t));
        }
        let Some(id) = self.peek_ident_no_dot() else {
            // 13 and 14 read a type attribute there; 15 names what it
            // wanted.
            let ed = self.seen.unwrap_or(if self.saw_legacy_func {
                Edition::V14
            } else {
                Edition::V15
            });
            return self.err_here(if ed == Edition::V15 {
                "expected attribute value"
            } else {
                "expected non-function type"
            });
        };
        match id {
            "true" | "false" => {
                self.pos += id.len();
                let v = id == "true";
                if let Some(t) = ty {
                    if self.ctx.kind(t) != &TypeKind::Integer(1, Signedness::Signless) {
                        let i = self.ctx.int_type(1);
                        let _ = i;
                    }
                } else if self.peek() == b':' && self.peek_at(1) != b':' {
                    // `true : i1`
                    let save = self.pos;
                    self.pos += 1;
                    if self.parse_type().is_err() {
                        self.pos = save;
                    }
                }
                Ok(self.ctx.attr(AttrKind::Bool(v)))
            }
            "unit" => {
                self.pos += 4;
                Ok(self.ctx.unit_attr())
            }
            "dense" => {
                self.pos += 5;
                self.parse_dense(ty)
            }
            "affine_map" | "affine_set" => {
                self.pos += id.len();
                self.expect("<")?;
                let body_at = self.pos;
                let body = self.balanced_body(p)?;
                // Parsed and printed as MLIR does: the stored text is the
                // canonical form (`d0 + d0` is `d0 * 2`).
                let canonical = if id == "affine_map" {
                    mlir_async_ir::affine::parse_map(body).map(|m| m.to_string())
                } else {
                    mlir_async_ir::affine::parse_set(body).map(|s| s.to_string())
                };
                let canonical = match canonical {
                    Ok(t) => t,
                    Err(e) => return self.err(body_at + e.offset, e.message),
                };
                let text = format!("{id}<{canonical}>");
                Ok(self.ctx.attr(AttrKind::Affine(text)))
            }
            "loc" => {
                let l = self.parse_location_body()?;
                let _ = l;
                Ok(self.ctx.unit_attr())
            }
            _ => {
                // A type used as an attribute (`i32`, `memref<...>`).
                let t = self.parse_type()?;
                Ok(self.ctx.type_attr(t))
            }
        }
    }

    /// `@name` or `@"quoted"`, then `::@nested`*.
    pub fn parse_symbol_ref_parts(&mut self) -> PResult<(String, Vec<String>)> {
        let root = self.symbol_name()?;
        let mut nested = vec![];
        while self.b[self.pos..].starts_with(b"::@") {
            self.pos += 2;
            nested.push(self.symbol_name()?);
        }
        Ok((root, nested))
    }
    /// `@name` as a plain string.
    pub fn symbol_name(&mut self) -> PResult<String> {
        self.skip_ws();
        if self.b.get(self.pos) != Some(&b'@') {
            return self.err_here("expected valid '@'-identifier for symbol name");
        }
        self.pos += 1;
        if self.b.get(self.pos) == Some(&b'"') {
            return self.string_lit();
        }
        let s = self.pos;
        while self.pos < self.b.len() && is_suffix_char(self.b[self.pos]) {
            self.pos += 1;
        }
        if s == self.pos {
            return self.err(s - 1, "expected valid '@'-identifier for symbol name");
        }
        Ok(self.src[s..self.pos].to_string())
    }

    fn parse_dense(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        let p = self.pos;
        self.expect("<")?;
        if self.peek() == b'"' {
            return self.parse_dense_hex(ty);
        }
        let mut elems = vec![];
        let mut splat = true;
        self.dense_at.clear();
        if self.peek() == b'[' {
            splat = false;
            self.parse_dense_list(&mut elems)?;
        } else if self.peek() != b'>' {
            elems.push(self.parse_dense_elem(0)?);
        }
        self.expect(">")?;
        let t = match ty {
            Some(t) => t,
            None => {
                self.skip_ws();
                self.expect(":")?;
                self.parse_type()?
            }
        };
        let Some(et) = self.ctx.kind(t).element_type() else {
            return self.err(p, "elements literal type must be a shaped type");
        };
        let ek = self.ctx.kind(et).clone();
        // The element count wraps as upstream's `int64_t` does (a debug
        // build panicked on a huge shape).
        let wrapping = |a: i64, d: i64| a.wrapping_mul(d);
        let n: i64 = match self.ctx.kind(t) {
            TypeKind::Vector { shape, .. } => shape.iter().copied().fold(1, wrapping),
            TypeKind::Tensor { shape, .. } | TypeKind::MemRef { shape, .. } => {
                shape.iter().map(|d| d.unwrap_or(0)).fold(1, wrapping)
            }
            _ => 0,
        };
        // Each element against the element type, in order, as upstream's
        // tensor literal parser checks them (13-15 alike).
        if ek.is_float() {
            let width = ek.bit_width().unwrap_or(64);
            self.skip_ws();
            let after = self.pos;
            for (i, lit) in std::mem::take(&mut self.dense_at).into_iter().enumerate() {
                let (at, neg) = (lit.at, lit.neg);
                let v = match elems.get(i) {
                    Some(DenseElem::Int(v)) if lit.hex => v,
                    // Reported where the parser stands, past the type.
                    Some(DenseElem::Int(_) | DenseElem::Bool(_)) => {
                        return self.err(
                            after,
                            "expected floating-point elements, but parsed integer",
                        );
                    }
                    _ => continue,
                };
                if neg {
                    return self.err(
                        at + 1,
                        "hexadecimal float literal should not have a leading minus",
                    );
                }
                let bits = *v as u128;
                if *v < 0 || bits >> 64 != 0 || (width < 64 && bits >> width != 0) {
                    return self.err(at, "hexadecimal float constant out of range for type");
                }
                elems[i] = float_elem_from_bits(&ek, bits);
            }
        } else if ek.is_int_or_index() {
            for (i, lit) in std::mem::take(&mut self.dense_at).into_iter().enumerate() {
                let digits = lit.at + usize::from(lit.neg);
                match elems.get(i) {
                    Some(DenseElem::Float(_)) => {
                        return self.err(
                            digits,
                            "expected integer elements, but parsed floating-point",
                        );
                    }
                    Some(DenseElem::Bool(_))
                        if ek != TypeKind::Integer(1, Signedness::Signless) =>
                    {
                        return self.err(digits, "expected i1 type for 'true' or 'false' values");
                    }
                    Some(DenseElem::Int(v)) => {
                        if lit.neg && matches!(ek, TypeKind::Integer(_, Signedness::Unsigned)) {
                            return self.err(
                                digits,
                                "expected unsigned integer elements, but parsed negative value",
                            );
                        }
                        if !dense_int_fits(*v, lit.neg, &ek) {
                            return self.err(digits, "integer constant out of range for type");
                        }
                    }
                    _ => {}
                }
            }
        }
        // Canonicalize element kinds to the element type.
        for e in &mut elems {
            match (&e, ek.is_float()) {
                (DenseElem::Int(i), true) => *e = DenseElem::Float((*i as f64).to_bits()),
                (DenseElem::Float(f), true) => {
                    *e = DenseElem::Float(round_to(&ek, f64::from_bits(*f)).to_bits())
                }
                (DenseElem::Bool(b), false) if ek != TypeKind::Integer(1, Signedness::Signless) => {
                    *e = DenseElem::Int(*b as i128)
                }
                (DenseElem::Int(i), false) if ek == TypeKind::Integer(1, Signedness::Signless) => {
                    *e = DenseElem::Bool(*i != 0)
                }
                // Signless elements print signed (`255 : i8` is `-1`).
                (DenseElem::Int(i), false) => *e = DenseElem::Int(normalize_int(*i, &ek)),
                _ => {}
            }
        }
        if !splat && elems.len() as i64 != n {
            return self.err(p, "inferred shape of elements literal does not match type");
        }
        // No elements at all is one form however spelled (`dense<>`).
        let splat = splat || elems.is_empty() || elems.iter().all(|e| *e == elems[0]);
        if splat && elems.len() > 1 {
            elems.truncate(1);
        }
        Ok(self.ctx.attr(AttrKind::Dense(elems, t, splat)))
    }
    /// `dense<"0x...">`: the elements' bytes, little-endian, each element
    /// in whole bytes (`i1`: one bit each, or one byte of all zeros or
    /// ones for a splat); as many bytes as one element make a splat.
    fn parse_dense_hex(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        let spos = self.pos;
        let text = self.string_lit_bytes()?;
        self.expect(">")?;
        let digit = |c: u8| (c as char).to_digit(16);
        let hex = match text.strip_prefix(b"0x") {
            Some(h) if h.len() % 2 == 0 && h.iter().all(|&c| digit(c).is_some()) => h,
            _ => {
                return self.err(
                    spos,
                    "expected string containing hex digits starting with `0x`",
                )
            }
        };
        // Where mlir-opt reports: the `:` before the type, the end of it.
        let (mut tpos, mut tend) = (spos, spos);
        let t = match ty {
            Some(t) => t,
            None => {
                self.skip_ws();
                tpos = self.pos;
                self.expect(":")?;
                let t = self.parse_type()?;
                tend = self.pos;
                t
            }
        };
        let data: Vec<u8> = hex
            .chunks(2)
            .map(|c| (digit(c[0]).unwrap_or(0) * 16 + digit(c[1]).unwrap_or(0)) as u8)
            .collect();
        let (n, et) = match self.ctx.kind(t) {
            TypeKind::Vector { shape, elem, .. } => (shape.iter().product::<i64>(), *elem),
            TypeKind::Tensor { shape, elem, .. } if shape.iter().all(|d| d.is_some()) => {
                (shape.iter().map(|d| d.unwrap_or(0)).product(), *elem)
            }
            TypeKind::Tensor { .. } => {
                return self.err(tend, "elements literal type must have static shape")
            }
            _ => return self.err(tpos, "elements literal type must be a shaped type"),
        };
        let n = n.max(0) as usize;
        let ek = self.ctx.kind(et).clone();
        let invalid = |p: &Self| {
            p.err(
                tpos,
                format!(
                    "elements hex data size is invalid for provided type: '{}'",
                    crate::print_type(p.ctx, t)
                ),
            )
        };
        // Zero-width elements take no storage: their raw data is empty,
        // however many there are (14 and 15 print them so above the hex
        // threshold), and each is 0.
        if let TypeKind::Integer(0, _) = ek {
            if !data.is_empty() {
                return invalid(self);
            }
            return Ok(self
                .ctx
                .attr(AttrKind::Dense(vec![DenseElem::Int(0)], t, true)));
        }
        if ek == TypeKind::Integer(1, Signedness::Signless) {
            if data.len() == 1 && (data[0] == 0 || data[0] == 0xff) {
                let e = DenseElem::Bool(data[0] != 0);
                return Ok(self.ctx.attr(AttrKind::Dense(vec![e], t, true)));
            }
            if data.len() != n.div_ceil(8) {
                return invalid(self);
            }
            let elems: Vec<DenseElem> = (0..n)
                .map(|i| DenseElem::Bool(data[i / 8] >> (i % 8) & 1 == 1))
                .collect();
            return Ok(self.dense_from(elems, t));
        }
        let width = match ek {
            TypeKind::Integer(w, _) if (1..=128).contains(&w) => w,
            TypeKind::Index => 64,
            TypeKind::F16 | TypeKind::BF16 => 16,
            TypeKind::F32 => 32,
            TypeKind::F64 => 64,
            TypeKind::F80 => 80,
            TypeKind::F128 => 128,
            _ => return self.err(tpos, "unsupported element type for hex dense elements"),
        } as usize;
        let size = width.div_ceil(8);
        let splat = data.len() == size;
        if !splat && data.len() != size * n {
            return invalid(self);
        }
        let elems: Vec<DenseElem> = data
            .chunks(size)
            .map(|c| {
                let raw = c.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128);
                match ek {
                    TypeKind::F16 => DenseElem::Float(half_to_f64(raw as u16).to_bits()),
                    TypeKind::BF16 => {
                        DenseElem::Float((f32::from_bits((raw as u32) << 16) as f64).to_bits())
                    }
                    TypeKind::F32 => {
                        DenseElem::Float((f32::from_bits(raw as u32) as f64).to_bits())
                    }
                    TypeKind::F64 => DenseElem::Float(raw as u64),
                    TypeKind::F80 | TypeKind::F128 => float_elem_from_bits(&ek, raw),
                    TypeKind::Integer(_, Signedness::Unsigned) => DenseElem::Int(raw as i128),
                    // The signed reading, as MLIR prints a signless value.
                    _ => {
                        let shift = 128 - width as u32;
                        DenseElem::Int(((raw << shift) as i128) >> shift)
                    }
                }
            })
            .collect();
        if splat {
            return Ok(self.ctx.attr(AttrKind::Dense(elems, t, true)));
        }
        Ok(self.dense_from(elems, t))
    }

    /// A dense attribute of all its elements, a splat if they are equal.
    fn dense_from(&mut self, mut elems: Vec<DenseElem>, t: Type) -> Attribute {
        let splat = elems.iter().all(|e| *e == elems[0]);
        if splat {
            elems.truncate(1);
        }
        self.ctx.attr(AttrKind::Dense(elems, t, splat))
    }

    fn parse_dense_list(&mut self, out: &mut Vec<DenseElem>) -> PResult<()> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err_here("nesting too deep")
        } else {
            self.parse_dense_list_nested(out)
        };
        self.depth -= 1;
        r
    }

    fn parse_dense_list_nested(&mut self, out: &mut Vec<DenseElem>) -> PResult<()> {
        self.expect("[")?;
        if self.eat("]") {
            return Ok(());
        }
        loop {
            if self.peek() == b'[' {
                self.parse_dense_list(out)?;
            } else {
                let index = out.len();
                out.push(self.parse_dense_elem(index)?);
            }
            if !self.eat(",") {
                break;
            }
        }
        self.expect("]")
    }
    /// An element of a dense literal, the `index`th.
    fn parse_dense_elem(&mut self, index: usize) -> PResult<DenseElem> {
        self.skip_ws();
        let at = self.pos;
        let neg = self.b.get(at) == Some(&b'-');
        let hex = self.src[at + usize::from(neg)..].starts_with("0x");
        debug_assert_eq!(self.dense_at.len(), index);
        self.dense_at.push(DenseLit { at, neg, hex });
        if self.eat_keyword("true") {
            return Ok(DenseElem::Bool(true));
        }
        if self.eat_keyword("false") {
            return Ok(DenseElem::Bool(false));
        }
        if let Some(f) = self.float_lit() {
            return Ok(DenseElem::Float(f.to_bits()));
        }
        if let Some(i) = self.int_lit() {
            return Ok(DenseElem::Int(i));
        }
        self.err_here("expected element literal of primitive type")
    }
}

/// How a dense element was spelled (see `Parser::dense_at`).
struct DenseLit {
    /// The literal's first byte, its minus sign included.
    at: usize,
    neg: bool,
    hex: bool,
}

/// Does a dense integer element fit its element type? Upstream's rule
/// (`buildAttributeAPInt`): the magnitude fits the width; a negative
/// value needs its sign bit once negated (so `-0` does not fit); a
/// positive signed or `index` value must leave the sign bit clear.
fn dense_int_fits(v: i128, neg: bool, k: &TypeKind) -> bool {
    let (w, signed) = match k {
        TypeKind::Index => (64, true),
        TypeKind::Integer(w, s) => (*w, *s == Signedness::Signed),
        _ => return true,
    };
    if w == 0 {
        return v == 0 && !neg;
    }
    if w >= 128 {
        return !(neg && v == 0);
    }
    let mag = v.unsigned_abs();
    if neg {
        mag != 0 && mag <= 1u128 << (w - 1)
    } else if signed {
        mag < 1u128 << (w - 1)
    } else {
        mag < 1u128 << w
    }
}

/// Does integer literal `i` fit an integer type of width `w` (below 128)?
/// A zero-width integer holds only 0, whatever its signedness: upstream
/// counts the bits the literal needs, and `-1` needs one.
fn fits(i: i128, w: u32, s: Signedness) -> bool {
    if w == 0 {
        return i == 0;
    }
    match s {
        Signedness::Unsigned => i >= 0 && i < (1i128 << w),
        Signedness::Signed => i >= -(1i128 << (w - 1)) && i < (1i128 << (w - 1)),
        // Signless accepts both readings, as MLIR does.
        Signedness::Signless => i >= -(1i128 << (w - 1)) && i < (1i128 << w),
    }
}

/// Signless integers are stored as their signed reading (MLIR prints them
/// signed).
fn normalize_int(i: i128, k: &TypeKind) -> i128 {
    match k {
        TypeKind::Integer(w, Signedness::Signless) if *w < 128 && *w > 1 => {
            let w = *w;
            let m = 1i128 << w;
            let v = i.rem_euclid(m);
            if v >= m / 2 {
                v - m
            } else {
                v
            }
        }
        TypeKind::Integer(1, _) => i & 1,
        _ => i,
    }
}

/// A float attribute of the bit pattern `bits` of `t` (kind `k`): a
/// `Float` when a double holds the value, bits and all (NaN payloads
/// included), else (`f80`, `f128` only) a `WideFloat` of the bits.
fn float_attr_from_bits(k: &TypeKind, bits: u128, t: Type) -> AttrKind {
    let f = crate::printer::float_from_bits(k, bits);
    if crate::printer::float_to_bits(k, f) == bits || !matches!(k, TypeKind::F80 | TypeKind::F128) {
        AttrKind::Float(f.to_bits(), t)
    } else {
        AttrKind::WideFloat(bits, t)
    }
}

/// [`float_attr_from_bits`] for an element of a dense attribute.
fn float_elem_from_bits(k: &TypeKind, bits: u128) -> DenseElem {
    let f = crate::printer::float_from_bits(k, bits);
    if crate::printer::float_to_bits(k, f) == bits || !matches!(k, TypeKind::F80 | TypeKind::F128) {
        DenseElem::Float(f.to_bits())
    } else {
        DenseElem::WideFloat(bits)
    }
}

/// Rounds to the precision of the float type (stored widened to f64).
pub fn round_to(k: &TypeKind, f: f64) -> f64 {
    crate::printer::round_float(k, f)
}

/// The value of IEEE half-precision bits.
fn half_to_f64(h: u16) -> f64 {
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let exp = (h >> 10 & 0x1f) as i32;
    let mant = (h & 0x3ff) as f64;
    sign * match exp {
        0 => mant * 2f64.powi(-24),
        31 if mant == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + mant / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The first attribute name given twice (a custom parser merges the
/// attribute dictionary it reads with the attributes it spells: MLIR
/// rejects a name given both ways). A scan for the handful most ops carry,
/// a set for many.
fn duplicate_attr(attrs: &[(Symbol, Attribute)]) -> Option<Symbol> {
    if attrs.len() <= 16 {
        return attrs
            .iter()
            .enumerate()
            .find(|(i, (k, _))| attrs[..*i].iter().any(|(j, _)| j == k))
            .map(|(_, (k, _))| *k);
    }
    let mut seen = mlir_async_ir::fxhash::FxHashSet::default();
    attrs.iter().map(|(k, _)| *k).find(|k| !seen.insert(*k))
}

#[cfg(test)]
mod tests {
    #[test]
    fn advance_cursor_matches_a_byte_loop() {
        let text: Vec<u8> = (0..300u32)
            .map(|i| match i % 7 {
                0 => b'\n',
                1 => 0x8a,
                2 => 0x0b,
                _ => b'a' + (i % 26) as u8,
            })
            .collect();
        for start in 0..20 {
            for end in start..text.len() {
                let cur = super::LineCursor {
                    pos: start,
                    line: 5,
                    line_start: 3,
                };
                let got = super::advance_cursor(&text, cur, end);
                let seg = &text[start..end];
                let n = seg.iter().filter(|&&c| c == b'\n').count() as u32;
                let ls = match seg.iter().rposition(|&c| c == b'\n') {
                    Some(i) => start + i + 1,
                    None => 3,
                };
                assert_eq!((got.pos, got.line, got.line_start), (end, 5 + n, ls));
            }
        }
    }

    #[test]
    fn newline_index_matches_a_byte_loop() {
        // Newlines next to the bytes a word-at-a-time test may mistake
        // for one (`\v` = 0x0b after a newline, 0x8a, 0x0a ^ 0x80), at
        // every offset and length.
        let text: Vec<u8> = (0..300u32)
            .map(|i| match i % 11 {
                0 | 3 | 4 => b'\n',
                1 | 5 => 0x0b,
                2 => 0x8a,
                _ => b'a' + (i % 26) as u8,
            })
            .collect();
        for start in 0..20 {
            for end in start..text.len() {
                let seg = &text[start..end];
                let ix = super::NewlineIndex::new(seg).expect("small");
                let want: Vec<u32> = (0..seg.len() as u32)
                    .filter(|&i| seg[i as usize] == b'\n')
                    .collect();
                assert_eq!(ix.nl, want);
                assert_eq!(ix.ascii, seg.is_ascii());
            }
        }
    }
}
