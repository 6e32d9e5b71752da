//! The printer, with MLIR's exact naming: values are numbered per region
//! tree (a nested region continues its parent's counters), names suggested
//! by ops are uniqued with `_N` suffixes, blocks are numbered per region.

use crate::edition::{custom_name, generic_name, Edition};
use crate::{CustomFitsFn, CustomPrintFn, DialectHooks, ResultNamesFn};
use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::*;
use std::fmt::Write;

/// Printing options (mlir-opt's `--mlir-print-*` flags).
#[derive(Clone, Copy, Debug)]
pub struct PrintOptions {
    pub edition: Edition,
    pub generic: bool,
    pub debug_info: bool,
}

/// A value slot with no name yet.
const NONE: u32 = u32::MAX;
/// Slots at or above this hold `NAMED | index into Names::spans`.
const NAMED: u32 = 1 << 31;
/// Marks the name of a result of an op with several: as an operand it
/// takes a `#N` suffix (or belongs to a named group), so `value_id`
/// looks at the op; every other named value prints as its name alone.
/// `NONE` has the bit too.
const MULTI: u32 = 1 << 30;

/// How far the printer's caches of text (names, types, attributes,
/// literals of declared formats) run on past the start of their last
/// piece: see [`Output::push_padded`].
pub const PAD: usize = 16;
const PADDING: &str = "                ";

/// The printer's output: bytes, holding UTF-8 (only whole `str`s go in),
/// so that a short piece of text cached by the printer is appended as a
/// copy of a fixed size ([`Output::push_padded`]). On a `String` every
/// piece was a call to `memcpy` of a few bytes behind checks of char
/// boundaries, at nearly every name, type and literal printed.
#[derive(Default, Debug)]
pub struct Output(Vec<u8>);

impl Output {
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }
    #[inline]
    pub fn push(&mut self, c: char) {
        if c.is_ascii() {
            self.0.push(c as u8);
        } else {
            self.push_str(c.encode_utf8(&mut [0; 4]));
        }
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn reserve(&mut self, n: usize) {
        self.0.reserve(n);
    }
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
    /// The text (UTF-8 by construction: nothing is lost).
    pub fn into_string(self) -> String {
        printed_text(self.0)
    }
    /// An empty output writing into `buf`'s memory: a piece handed back
    /// by a consumer of printed pieces (see
    /// [`Printer::print_sources_with`]), whose pages are mapped already.
    pub fn reusing(mut buf: Vec<u8>) -> Output {
        buf.clear();
        Output(buf)
    }
    /// Appends `text[at..at + len]`, a whole piece of `text`, which runs on
    /// for at least [`PAD`] bytes from `at`: a piece of up to `PAD` bytes
    /// is copied as `PAD` bytes and the output cut back to its end.
    #[inline]
    pub fn push_padded(&mut self, text: &str, at: usize, len: usize) {
        let bytes = text.as_bytes();
        match bytes.get(at..at + PAD) {
            Some(window) if len <= PAD => {
                let keep = self.0.len() + len;
                self.0.extend_from_slice(window);
                self.0.truncate(keep);
            }
            _ => self.0.extend_from_slice(&bytes[at..at + len]),
        }
    }
}

/// Printed bytes (a piece of [`Printer::print_sources_with`]) as text.
pub fn printed_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

impl std::fmt::Write for Output {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

/// Starts a piece at the end of `text`, which ends in [`PADDING`] (or is
/// empty): the padding goes, and is put back by [`close_piece`].
fn open_piece(text: &mut String) -> usize {
    if !text.is_empty() {
        text.truncate(text.len() - PAD);
    }
    text.len()
}

/// Ends a piece begun by [`open_piece`]; returns where it ends.
fn close_piece(text: &mut String) -> usize {
    let end = text.len();
    text.push_str(PADDING);
    end
}

/// Value and block names, in dense tables indexed by handle: the printer
/// asks for a name at every operand, and a hash lookup per operand showed
/// up as a top cost on large modules.
#[derive(Default)]
struct Names {
    /// Per value: `%N` (a number below `NAMED`), `%name` (`NAMED | i`,
    /// the name at `spans[i]` of `text`) or `NONE`, stored inverted so
    /// that `NONE` is 0: a table of zeros comes from fresh pages, which
    /// each printing thread then touches only where its values are (one
    /// table per thread, sized for the whole IR).
    slots: Vec<u32>,
    /// All names, back to back, each after a `%` (printed with it in one
    /// copy), the last followed by [`PADDING`]: one buffer instead of a
    /// string each.
    text: String,
    spans: Vec<(u32, u32)>,
    /// Result group starts of ops with several groups (rare).
    groups: FxHashMap<Op, Vec<u32>>,
    /// Per block: its number in its region, or `NONE`; inverted too.
    blocks: Vec<u32>,
}

impl Names {
    fn text_of(&self, i: u32) -> &str {
        let (s, e) = self.spans[i as usize];
        &self.text[s as usize..e as usize]
    }
    fn slot(&self, v: Value) -> u32 {
        !self.slots.get(v.index()).copied().unwrap_or(0)
    }
    fn has(&self, v: Value) -> bool {
        self.slot(v) != NONE
    }
    /// Appends the name of text (not a number) a slot holds, with its `%`.
    #[inline]
    fn push_named(&self, slot: u32, out: &mut Output) {
        let (s, e) = self.spans[(slot & !(NAMED | MULTI)) as usize];
        out.push_padded(&self.text, s as usize - 1, (e - s) as usize + 1);
    }
    #[inline]
    fn set_slot(&mut self, v: Value, s: u32) {
        match self.slots.get_mut(v.index()) {
            Some(slot) => *slot = !s,
            None => self.grow_slots(v, s),
        }
    }
    /// The tables are sized for the context's values: only a value made
    /// after that lands here.
    #[cold]
    #[inline(never)]
    fn grow_slots(&mut self, v: Value, s: u32) {
        self.slots.resize(v.index() + 1, 0);
        self.slots[v.index()] = !s;
    }
}

/// An open naming scope (a region being numbered, or one of its
/// ancestors): its id and where its names start in `Namer::log`.
struct NameScope {
    id: usize,
    log_start: usize,
}

struct Namer<'a> {
    ctx: &'a Context,
    hooks: &'a dyn DialectHooks,
    names: Names,
    /// Regions are numbered depth first, so the scopes whose names a new
    /// name must avoid are exactly the open ones: one set for all of
    /// them, undone through `log` when a scope closes, instead of a set
    /// per region probed up the whole ancestor chain.
    used: NameSet,
    /// Span indices (into `names.spans`) of the names in `used`, in order.
    log: Vec<u32>,
    path: Vec<NameScope>,
    next_scope: usize,
    next_value: u32,
    next_arg: u32,
    next_conflict: u32,
    /// The generic form takes no name hints from ops.
    generic: bool,
    /// Hints may differ by generation (14 named an i128 constant by its
    /// low 64 bits).
    edition: Edition,
    /// Reused buffers for the result name hints of one op.
    hint_text: String,
    hints: Vec<(usize, usize, usize)>,
    /// Scratch buffers for the name being made unique and `argN`.
    buf: String,
    arg_buf: String,
    /// Per op name symbol: its hint function, once asked.
    namers: Vec<Option<Option<ResultNamesFn>>>,
    /// The ops with regions in the region just numbered, in order (their
    /// regions are numbered next, from the counters it ends with).
    nested: Vec<Op>,
    /// How many ops were numbered: what a part's text is sized for.
    ops: usize,
}

/// The names in use in the open scopes, as indices of `Names::spans`
/// found by the hash of their text: names come and go by the tens of
/// thousands, and a set of strings allocated a copy of each.
#[derive(Default)]
struct NameSet {
    /// Hash -> the first name in use with that hash.
    first: FxHashMap<u64, u32>,
    /// Names whose hash another name in use already had (rare).
    more: Vec<(u64, u32)>,
}

impl NameSet {
    /// A folded multiply per word (the 128-bit product's halves xored):
    /// each step carries high bits down. The Fx hash gave whole 64-bit
    /// collisions between names of more than eight bytes (`%arg100592` and
    /// `%arg100519`), which `more` holds: with a million block arguments
    /// it grew to thousands and every lookup scanned it.
    fn hash(s: &str) -> u64 {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut h = (s.len() as u64).wrapping_mul(K);
        for c in s.as_bytes().chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            let m = (h ^ u64::from_le_bytes(w)) as u128 * K as u128;
            h = (m as u64) ^ ((m >> 64) as u64);
        }
        h
    }
    fn contains(&self, names: &Names, s: &str, h: u64) -> bool {
        self.first.get(&h).is_some_and(|&i| names.text_of(i) == s)
            || self
                .more
                .iter()
                .any(|&(mh, i)| mh == h && names.text_of(i) == s)
    }
    fn insert(&mut self, h: u64, i: u32) {
        if let Some(&j) = self.first.get(&h) {
            debug_assert_ne!(i, j);
            self.more.push((h, i));
        } else {
            self.first.insert(h, i);
        }
    }
    fn remove(&mut self, h: u64, i: u32) {
        if self.first.get(&h) == Some(&i) {
            match self.more.iter().position(|&(mh, _)| mh == h) {
                Some(k) => {
                    let (_, j) = self.more.swap_remove(k);
                    self.first.insert(h, j);
                }
                None => {
                    self.first.remove(&h);
                }
            }
        } else if let Some(k) = self.more.iter().position(|&e| e == (h, i)) {
            self.more.swap_remove(k);
        }
    }
}

impl<'a> Namer<'a> {
    fn is_used(&self, n: &str, h: u64) -> bool {
        self.used.contains(&self.names, n, h)
    }
    /// Closes scopes until `id` is the innermost open one, forgetting
    /// their names.
    fn close_to(&mut self, id: usize) {
        while let Some(top) = self.path.last() {
            if top.id == id {
                break;
            }
            let start = top.log_start;
            self.path.pop();
            for i in self.log.drain(start..) {
                let h = NameSet::hash(self.names.text_of(i));
                self.used.remove(h, i);
            }
        }
    }
    fn open_scope(&mut self) -> usize {
        let id = self.next_scope;
        self.next_scope += 1;
        self.path.push(NameScope {
            id,
            log_start: self.log.len(),
        });
        id
    }
    /// Makes `name` unique in the current scope; the result is left in
    /// `self.buf`, its hash returned.
    fn unique(&mut self, name: &str) -> u64 {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        sanitize_into(name, &mut buf);
        let mut h = NameSet::hash(&buf);
        if self.is_used(&buf, h) {
            let base = buf.len();
            loop {
                buf.truncate(base);
                buf.push('_');
                push_u32(&mut buf, self.next_conflict);
                self.next_conflict += 1;
                h = NameSet::hash(&buf);
                if !self.is_used(&buf, h) {
                    break;
                }
            }
        }
        self.buf = buf;
        h
    }
    #[inline]
    fn number_value(&mut self, v: Value) {
        self.names.set_slot(v, self.next_value);
        self.next_value += 1;
    }
    fn set_name(&mut self, v: Value, name: &str) {
        if name.is_empty() {
            self.number_value(v);
        } else {
            let h = self.unique(name);
            let i = self.names.spans.len() as u32;
            open_piece(&mut self.names.text);
            self.names.text.push('%');
            let start = self.names.text.len() as u32;
            self.names.text.push_str(&self.buf);
            let end = close_piece(&mut self.names.text) as u32;
            self.names.spans.push((start, end));
            self.used.insert(h, i);
            self.log.push(i);
            self.names.set_slot(v, NAMED | i);
        }
    }
    #[inline]
    fn number_op(&mut self, op: Op) {
        let results = self.ctx.results(op);
        match *results {
            [] => {}
            [first] => self.number_results(op, first),
            [first, ..] => {
                self.number_results(op, first);
                for &r in results {
                    let s = self.names.slot(r);
                    if s != NONE {
                        self.names.set_slot(r, s | MULTI);
                    }
                }
            }
        }
    }
    #[inline]
    fn number_results(&mut self, op: Op, first: Value) {
        match self.result_namer(op) {
            Some(f) => self.number_op_with_hints(op, f),
            // Most ops suggest no names: their results are numbered.
            None => {
                if !self.names.has(first) {
                    self.number_value(first);
                }
            }
        }
    }
    /// The op's result name hints, asked once per op name.
    #[inline]
    fn result_namer(&mut self, op: Op) -> Option<ResultNamesFn> {
        // The generic form names no values after op hints.
        if self.generic {
            return None;
        }
        match self.namers.get(self.ctx.op(op).name.index()) {
            Some(&Some(namer)) => namer,
            _ => self.ask_result_namer(op),
        }
    }
    #[cold]
    #[inline(never)]
    fn ask_result_namer(&mut self, op: Op) -> Option<ResultNamesFn> {
        let s = self.ctx.op(op).name.index();
        if self.namers.len() <= s {
            self.namers.resize(s + 1, None);
        }
        let namer = self.hooks.result_namer(self.ctx.name(op));
        self.namers[s] = Some(namer);
        namer
    }
    fn number_op_with_hints(&mut self, op: Op, namer: ResultNamesFn) {
        let ctx = self.ctx;
        let results = ctx.results(op);
        // Result groups beyond the first are rare: allocate only for them.
        let mut groups: Vec<u32> = vec![];
        let mut text = std::mem::take(&mut self.hint_text);
        let mut hints = std::mem::take(&mut self.hints);
        text.clear();
        hints.clear();
        namer(ctx, op, self.edition, &mut |i, n| {
            let s = text.len();
            text.push_str(n);
            hints.push((i, s, text.len()));
        });
        for &(i, s, e) in &hints {
            let Some(&v) = results.get(i) else { continue };
            if self.names.has(v) {
                continue;
            }
            self.set_name(v, &text[s..e]);
            if i != 0 {
                if groups.is_empty() {
                    groups.push(0);
                }
                groups.push(i as u32);
            }
        }
        self.hint_text = text;
        self.hints = hints;
        let first = results[0];
        if !self.names.has(first) {
            self.number_value(first);
        }
        if !groups.is_empty() {
            groups.sort_unstable();
            self.names.groups.insert(op, groups);
        }
    }
    fn number_region(&mut self, r: Region) {
        for (i, b) in self.ctx.region_blocks(r).enumerate() {
            if self.names.blocks.len() <= b.index() {
                self.names
                    .blocks
                    .resize(self.ctx.num_blocks().max(b.index() + 1), 0);
            }
            self.names.blocks[b.index()] = !(i as u32);
            let entry = i == 0;
            for &a in self.ctx.block_args(b) {
                if entry {
                    let mut n = std::mem::take(&mut self.arg_buf);
                    n.clear();
                    n.push_str("arg");
                    push_u32(&mut n, self.next_arg);
                    self.next_arg += 1;
                    self.set_name(a, &n);
                    self.arg_buf = n;
                } else {
                    self.number_value(a);
                }
            }
            for o in self.ctx.block_ops_iter(b) {
                self.ops += 1;
                self.number_op(o);
                if !self.ctx.regions_of(o).is_empty() {
                    self.nested.push(o);
                }
            }
        }
    }
    fn new(
        ctx: &'a Context,
        hooks: &'a dyn DialectHooks,
        generic: bool,
        edition: Edition,
        names: Names,
    ) -> Self {
        Namer {
            ctx,
            hooks,
            names,
            used: NameSet::default(),
            log: vec![],
            path: vec![],
            next_scope: 0,
            next_value: 0,
            next_arg: 0,
            next_conflict: 0,
            hint_text: String::new(),
            hints: vec![],
            generic,
            edition,
            buf: String::new(),
            arg_buf: String::new(),
            namers: vec![],
            nested: vec![],
            ops: 0,
        }
    }

    fn size_tables(&mut self) {
        mlir_async_ir::grow_zeroed(&mut self.names.slots, self.ctx.num_values(), 0);
        mlir_async_ir::grow_zeroed(&mut self.names.blocks, self.ctx.num_blocks(), 0);
    }

    /// Numbers everything under `top`.
    fn run(&mut self, top: Op) {
        self.size_tables();
        let root = self.open_scope();
        let mut work: Vec<(Region, u32, u32, u32, usize)> = vec![];
        for &r in self.ctx.regions_of(top).iter() {
            work.push((r, self.next_value, self.next_arg, self.next_conflict, root));
        }
        self.number_op(top);
        self.drain(work);
    }

    /// Numbers `top` and the regions of `part`, ops of `top`'s body, as
    /// `run` would. Only for a body that defines no values: then every
    /// body op's regions start from the same counters and names, so parts
    /// can be numbered by different namers.
    fn run_part(&mut self, top: Op, part: &[Op]) {
        self.size_tables();
        self.open_scope();
        self.number_op(top);
        let body = self.open_scope();
        let mut work: Vec<(Region, u32, u32, u32, usize)> = vec![];
        for &o in part {
            for &r in self.ctx.regions_of(o) {
                work.push((r, self.next_value, self.next_arg, self.next_conflict, body));
            }
        }
        self.drain(work);
    }

    /// Numbers the regions on the `work` stack and everything nested in
    /// them; each entry carries the counters its region starts from and
    /// the scope it opens in.
    fn drain(&mut self, mut work: Vec<(Region, u32, u32, u32, usize)>) {
        while let Some((r, nv, na, nc, parent)) = work.pop() {
            self.next_value = nv;
            self.next_arg = na;
            self.next_conflict = nc;
            self.close_to(parent);
            let me = self.open_scope();
            self.nested.clear();
            self.number_region(r);
            for &o in &self.nested {
                for &nr in self.ctx.regions_of(o) {
                    work.push((nr, self.next_value, self.next_arg, self.next_conflict, me));
                }
            }
        }
    }
}

/// The bytes the text of each number takes in `Printer::nums`: `%` and
/// up to seven digits.
const NUM_STRIDE: usize = 8;
/// Numbers from this on print without the cache (8 MB of it).
const NUM_CACHED: u32 = 1 << 20;

/// The number of decimal digits of `n` (below [`NUM_CACHED`]).
fn decimal_digits(n: u32) -> usize {
    1 + usize::from(n >= 10)
        + usize::from(n >= 100)
        + usize::from(n >= 1_000)
        + usize::from(n >= 10_000)
        + usize::from(n >= 100_000)
        + usize::from(n >= 1_000_000)
}

/// The two-digit spellings of 0 to 99, back to back.
const PAIRS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// Where [`push_u32`] writes: a `String` or the printer's [`Output`].
pub trait Sink {
    fn push_str(&mut self, s: &str);
}

impl Sink for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
}

impl Sink for Output {
    #[inline]
    fn push_str(&mut self, s: &str) {
        Output::push_str(self, s);
    }
}

/// Appends a decimal number without going through `fmt` (called for
/// nearly every operand), two digits at a time: copies of a constant
/// length, which compile to a load and a store (a buffer pushed byte by
/// byte cost twice as much).
pub fn push_u32(out: &mut impl Sink, n: u32) {
    if n < 10 {
        digit(out, n);
    } else if n < 100 {
        pair(out, n);
    } else if n < 10_000 {
        let high = n / 100;
        if high < 10 {
            digit(out, high);
        } else {
            pair(out, high);
        }
        pair(out, n % 100);
    } else {
        push_u32(out, n / 100);
        pair(out, n % 100);
    }
}

/// The digit `n` (below 10): the second of its pair.
fn digit(out: &mut impl Sink, n: u32) {
    let i = 2 * n as usize + 1;
    out.push_str(&PAIRS[i..i + 1]);
}

/// The two digits of `n` (below 100).
fn pair(out: &mut impl Sink, n: u32) {
    let i = 2 * n as usize;
    out.push_str(&PAIRS[i..i + 2]);
}

/// MLIR's `sanitizeIdentifier`: keeps `[a-zA-Z0-9$._-]`, maps others to
/// `_`, and prefixes names starting with a digit.
fn sanitize_into(name: &str, s: &mut String) {
    let keep = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'$' | b'.' | b'_' | b'-');
    if name.as_bytes().first().is_some_and(|c| c.is_ascii_digit()) {
        s.push('_');
    }
    // Hints are nearly always clean already: copy them whole.
    if name.bytes().all(keep) {
        s.push_str(name);
        return;
    }
    for c in name.chars() {
        if c.is_ascii() && keep(c as u8) {
            s.push(c);
        } else if !s.ends_with('_') {
            s.push('_');
        }
    }
}

pub struct Printer<'a> {
    pub ctx: &'a Context,
    pub out: Output,
    pub opts: PrintOptions,
    hooks: &'a dyn DialectHooks,
    names: Names,
    indent: usize,
    /// Per op name symbol: its custom printer, once asked, and where its
    /// one spelling is in `spelling_text` (see [`OpPrint`]).
    custom: Vec<Option<OpPrint>>,
    /// Per op name symbol: the printer of its generic attribute dictionary.
    generic_attrs: Vec<Option<Option<CustomPrintFn>>>,
    /// The printed text of each type printed so far, by handle: a few
    /// types repeat at nearly every op, and printing one walks its
    /// structure (integers go through `fmt`). The text ends in
    /// [`PADDING`].
    type_spans: Vec<(u32, u32)>,
    type_text: String,
    /// `%0`, `%1`, ...: see [`Printer::push_number`].
    nums: String,
    /// Printed attributes by handle, with and without their type (the
    /// same callees, predicates and constants recur); text in `type_text`.
    attr_spans: [Vec<(u32, u32)>; 2],
    /// Per op name symbol: its custom spelling outside and inside a
    /// `func.func` body, and whether that is all there is to know (no
    /// rule of `spelled` looks at the op's parent).
    spellings: Vec<Option<(&'a str, &'a str, bool)>>,
    /// ` = ` and the spelling outside a function body of each op name
    /// printed, back to back (ending in [`PADDING`]).
    spelling_text: String,
    /// Text of runs of body ops printed by other threads (see
    /// `print_parallel`).
    prerendered: Option<Prerendered>,
    /// Text before `out`, when prerendered runs were handed over.
    pieces: Vec<Vec<u8>>,
    /// With debug info: each distinct location printed, in the order a
    /// dry run of mlir-opt's printer meets them, and whether one of its
    /// uses cannot take an alias (see [`Printer::finish_locations`]).
    locs: Vec<(String, bool)>,
    loc_ids: FxHashMap<String, u32>,
    /// Elide large dense attributes (diagnostics of 14 and 15).
    elide_large_elements: bool,
}

/// The body ops of a module to print, from one context: see
/// [`Printer::print_sources_with`].
pub struct BodySource<'a> {
    pub ctx: &'a Context,
    pub hooks: &'a dyn DialectHooks,
    /// The module holding `ops`: their names are numbered under it.
    pub top: Op,
    pub ops: Vec<Op>,
}

/// About what one op takes in the text (45 bytes on average for a module of
/// arithmetic): a part's text is reserved for this much at once.
const BYTES_PER_OP: usize = 64;

/// How the printer prints ops of one name: its custom printer, if any,
/// and ` = ` and its spelling at `Printer::spelling_text[at..]` (`len`
/// bytes of name), which is all there is to its spelling if `plain`.
#[derive(Clone, Copy)]
struct OpPrint {
    print: Option<CustomPrintFn>,
    /// Where the custom form cannot spell every op of the name: which it
    /// can (the others print generic, so that the output reads back).
    fits: Option<CustomFitsFn>,
    at: u32,
    len: u32,
    plain: bool,
}

/// Runs of consecutive ops already printed: (first op, last op, text),
/// in block order; `next` is the first run not yet emitted.
struct Prerendered {
    runs: Vec<(Op, Op, Vec<u8>)>,
    next: usize,
    /// Where in `pieces` each run's text went.
    slots: Vec<usize>,
}

impl<'a> Printer<'a> {
    /// Names every value under `top` and prepares to print it.
    pub fn new(ctx: &'a Context, hooks: &'a dyn DialectHooks, top: Op, opts: PrintOptions) -> Self {
        let mut namer = Namer::new(ctx, hooks, opts.generic, opts.edition, Names::default());
        namer.run(top);
        Self::with_names(ctx, hooks, opts, namer.names)
    }

    fn with_names(
        ctx: &'a Context,
        hooks: &'a dyn DialectHooks,
        opts: PrintOptions,
        names: Names,
    ) -> Self {
        Printer {
            ctx,
            out: Output::default(),
            opts,
            hooks,
            names,
            indent: 0,
            custom: vec![],
            generic_attrs: vec![],
            type_spans: vec![],
            type_text: String::new(),
            nums: String::new(),
            attr_spans: [vec![], vec![]],
            spellings: vec![],
            spelling_text: String::new(),
            prerendered: None,
            pieces: vec![],
            locs: vec![],
            loc_ids: FxHashMap::default(),
            elide_large_elements: false,
        }
    }

    /// `op` as MLIR's diagnostics print an op (`Diagnostic::appendOp`:
    /// local scope, large elements elided): its values named as in its
    /// nearest isolated-from-above ancestor (or itself), so that the names
    /// are those of the printed function, and values from outside that
    /// scope print as `<<UNKNOWN SSA VALUE>>`; at indentation 0, affine
    /// maps inline, locations (with `debug_info`) inline too. 13 elides
    /// no elements.
    pub fn op_for_diagnostic(
        ctx: &'a Context,
        hooks: &'a dyn DialectHooks,
        op: Op,
        opts: PrintOptions,
    ) -> String {
        let scope = ctx
            .ancestor(op, |c, o| c.traits_of(o).isolated_from_above)
            .unwrap_or(op);
        let mut p = Printer::new(ctx, hooks, scope, opts);
        p.elide_large_elements = opts.edition != Edition::V13;
        p.op(op);
        let text = std::mem::take(&mut p.out).into_string();
        if p.locs.is_empty() {
            return text;
        }
        // Locations inline: replace the alias placeholders by the text.
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(i) = rest.find('\u{1}') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let end = after.find('\u{1}').unwrap_or(after.len());
            let id: usize = after[..end].parse().unwrap_or(0);
            out.push_str(p.locs.get(id).map_or("unknown", |l| l.0.as_str()));
            rest = after.get(end + 1..).unwrap_or("");
        }
        out.push_str(rest);
        out
    }

    /// Names `top` and the values under the ops of `part` (see
    /// `Namer::run_part`), keeping the tables (and names) of earlier parts;
    /// returns how many ops that is.
    fn name_part(&mut self, top: Op, part: &[Op]) -> usize {
        let names = std::mem::take(&mut self.names);
        let mut namer = Namer::new(
            self.ctx,
            self.hooks,
            self.opts.generic,
            self.opts.edition,
            names,
        );
        namer.run_part(top, part);
        self.names = namer.names;
        namer.ops
    }

    /// Prints `top` with the ops of its body (a module's functions)
    /// rendered on several threads. Their names are independent: the
    /// body defines no values, so each op's regions are numbered from the
    /// same state whoever numbers them. Returns `None` (print as usual)
    /// when that does not hold or the body is too small to be worth it.
    pub fn print_parallel_with<E>(
        ctx: &'a Context,
        hooks: &'a dyn DialectHooks,
        top: Op,
        opts: PrintOptions,
        consume: &mut dyn FnMut(Vec<u8>) -> Result<Option<Vec<u8>>, E>,
    ) -> Option<Result<(), E>> {
        /// Below this many nested ops, threads cost more than they save.
        const MIN_OPS: usize = 2_000;
        // Location aliases are numbered over the whole text.
        if opts.debug_info {
            return None;
        }
        let ops = Self::body_ops(ctx, top)?;
        let threads = mlir_async_ir::parallel::threads_for(ops.len());
        if threads < 2 || ctx.num_ops() < MIN_OPS {
            return None;
        }
        let source = BodySource {
            ctx,
            hooks,
            top,
            ops,
        };
        Self::print_sources_with(std::slice::from_ref(&source), opts, consume)
    }

    /// The ops of `top`'s body that can be printed apart; `None` if any
    /// defines a value, or if the body ends in a terminator (a module
    /// prints every op it holds, so such an odd module prints whole).
    pub fn body_ops(ctx: &Context, top: Op) -> Option<Vec<Op>> {
        let &[r] = ctx.regions_of(top) else {
            return None;
        };
        let body = ctx.single_block(r)?;
        if !ctx.block_args(body).is_empty() {
            return None;
        }
        let ops: Vec<Op> = ctx.block_ops_iter(body).collect();
        if ops.last().is_some_and(|&o| ctx.traits_of(o).is_terminator) {
            return None;
        }
        if ops.iter().any(|&o| !ctx.results(o).is_empty()) {
            return None;
        }
        Some(ops)
    }

    /// Prints the first source's `top` with, in place of its body, the
    /// body ops of every source in turn: one module whose functions live
    /// in several contexts (a module parsed and lowered in shards) prints
    /// as the module would. Each source's ops are printed in parts on
    /// several threads (see [`Printer::print_parallel_with`]).
    ///
    /// The text goes to `consume` in pieces, in order, while later
    /// functions are still being printed. A piece `consume` hands back is
    /// reused for a later one: its pages are already mapped, where a
    /// fresh buffer per piece faulted in as much memory as the output.
    pub fn print_sources_with<E>(
        sources: &[BodySource<'a>],
        opts: PrintOptions,
        consume: &mut dyn FnMut(Vec<u8>) -> Result<Option<Vec<u8>>, E>,
    ) -> Option<Result<(), E>> {
        let frame_src = sources.first()?;
        let (ctx, top) = (frame_src.ctx, frame_src.top);
        let whole = Self::body_ops(ctx, top)?;
        let (&first, &last) = (whole.first()?, whole.last()?);
        // Parts: runs of one source's ops, many more than threads:
        // functions differ in size, a thread that finishes early takes
        // the next part, and the first parts are written while the others
        // are printed.
        let total: usize = sources.iter().map(|s| s.ops.len()).sum();
        let threads = mlir_async_ir::parallel::threads_for(total);
        let per_part = total.div_ceil(16 * threads.max(1)).max(1);
        let mut items: Vec<(usize, Op)> = Vec::with_capacity(total);
        let mut bounds = vec![0];
        for (k, s) in sources.iter().enumerate() {
            for chunk in s.ops.chunks(per_part) {
                items.extend(chunk.iter().map(|&o| (k, o)));
                bounds.push(items.len());
            }
        }
        // The text around the parts first: `top` with its body as one
        // empty run, whose place among the pieces is the slot the parts
        // go to.
        let mut p = Printer::with_names(ctx, frame_src.hooks, opts, Names::default());
        p.name_part(top, &[]);
        p.prerendered = Some(Prerendered {
            runs: vec![(first, last, vec![])],
            next: 0,
            slots: vec![],
        });
        p.op(top);
        p.out.push('\n');
        let slots = std::mem::take(&mut p.prerendered.as_mut()?.slots);
        let &[slot] = &slots[..] else {
            return None;
        };
        let mut frame = std::mem::take(&mut p.pieces);
        frame.push(std::mem::take(&mut p.out).into_bytes());
        let (before, after) = frame.split_at_mut(slot);
        let spare: std::sync::Mutex<Vec<Vec<u8>>> = std::sync::Mutex::new(vec![]);
        let r = (|| {
            for piece in before {
                if !piece.is_empty() {
                    consume(std::mem::take(piece))?;
                }
            }
            mlir_async_ir::parallel::for_each_part_in_order(
                &bounds,
                || -> Vec<Option<Printer<'a>>> { sources.iter().map(|_| None).collect() },
                |printers, range| {
                    let part = &items[range];
                    let Some(&(k, _)) = part.first() else {
                        return vec![];
                    };
                    let s = &sources[k];
                    let p = printers[k].get_or_insert_with(|| {
                        Printer::with_names(s.ctx, s.hooks, opts, Names::default())
                    });
                    let ops: Vec<Op> = part.iter().map(|&(_, o)| o).collect();
                    let nested = p.name_part(s.top, &ops);
                    p.indent = 2;
                    p.out = Output::reusing(
                        spare
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .pop()
                            .unwrap_or_default(),
                    );
                    // Room for the part at once: grown by doubling, the
                    // text was copied over and over, and each copy mapped
                    // fresh pages.
                    p.out.reserve(BYTES_PER_OP * (nested + ops.len()));
                    for o in ops {
                        p.op(o);
                        p.newline();
                    }
                    std::mem::take(&mut p.out).into_bytes()
                },
                |text| {
                    if let Some(mut back) = consume(text)? {
                        back.clear();
                        spare.lock().unwrap_or_else(|e| e.into_inner()).push(back);
                    }
                    Ok(())
                },
            )?;
            // The slot itself is an empty placeholder.
            for piece in after.iter_mut().skip(1) {
                if !piece.is_empty() {
                    consume(std::mem::take(piece))?;
                }
            }
            Ok(())
        })();
        Some(r)
    }

    /// `hooks.custom_printer`, asked once per op name rather than per op,
    /// with the spelling that goes with it.
    fn custom_printer(&mut self, op: Op) -> OpPrint {
        let s = self.ctx.op(op).name.index();
        if let Some(&Some(p)) = self.custom.get(s) {
            return p;
        }
        if self.custom.len() <= s {
            self.custom.resize(s + 1, None);
        }
        let print = self.hooks.custom_printer(self.ctx.name(op));
        // Fills `spellings[s]`: whether `spelled` reads the op's name
        // alone (nearly every op).
        self.spelled(op);
        let (outside, _, plain) = self.spellings[s].unwrap_or(("", "", false));
        let at = open_piece(&mut self.spelling_text) as u32;
        self.spelling_text.push_str(" = ");
        self.spelling_text.push_str(outside);
        close_piece(&mut self.spelling_text);
        let p = OpPrint {
            print,
            fits: print.and_then(|_| self.hooks.custom_form_fits(self.ctx.name(op))),
            at,
            len: outside.len() as u32,
            plain,
        };
        self.custom[s] = Some(p);
        p
    }

    /// `hooks.generic_attrs_printer`, asked once per op name.
    fn generic_attrs_printer(&mut self, op: Op) -> Option<CustomPrintFn> {
        let s = self.ctx.op(op).name.index();
        if self.generic_attrs.len() <= s {
            self.generic_attrs.resize(s + 1, None);
        }
        let (ctx, hooks) = (self.ctx, self.hooks);
        *self.generic_attrs[s].get_or_insert_with(|| hooks.generic_attrs_printer(ctx.name(op)))
    }

    /// `custom_name` of the op, looked up once per op name: it searches
    /// the rename tables, which showed up at every printed op.
    fn spelled(&mut self, op: Op) -> &'a str {
        let ctx = self.ctx;
        let s = ctx.op(op).name.index();
        if self.spellings.len() <= s {
            self.spellings.resize(s + 1, None);
        }
        let ed = self.opts.edition;
        let (outside, inside, plain) = *self.spellings[s].get_or_insert_with(|| {
            let name = ctx.name(op);
            let (outside, inside) = (custom_name(name, ed, false), custom_name(name, ed, true));
            // None of the rules below can apply (nearly every op).
            let func_14 = ed == Edition::V14 && outside == "func";
            let builtin =
                ed != Edition::V13 && outside.len() != name.len() && name.starts_with("builtin.");
            let plain = !func_14 && !builtin && std::ptr::eq(outside, inside);
            (outside, inside, plain)
        });
        if plain {
            return outside;
        }
        // 14 spells a function `func` only where `builtin` is the default
        // dialect, in a module's body; nested anywhere else it is
        // `builtin.func` (13 says `func` everywhere).
        if self.opts.edition == Edition::V14
            && outside == "func"
            && ctx
                .parent_op(op)
                .is_some_and(|p| ctx.name(p) != "builtin.module")
        {
            return "builtin.func";
        }
        // Builtin ops lose their prefix only where `builtin` is the
        // default dialect: in a module's body (and at the top).
        // (13's builtin dialect had no prefix at all.)
        if self.opts.edition != Edition::V13
            && outside.len() != ctx.name(op).len()
            && ctx.name(op).starts_with("builtin.")
            && ctx
                .parent_op(op)
                .is_some_and(|p| ctx.name(p) != "builtin.module")
        {
            return ctx.name(op);
        }
        if std::ptr::eq(outside, inside) {
            return outside;
        }
        let in_func = ctx
            .parent_op(op)
            .is_some_and(|p| ctx.name(p) == "func.func");
        if in_func {
            inside
        } else {
            outside
        }
    }

    pub fn edition(&self) -> Edition {
        self.opts.edition
    }
    pub fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    // ----- values -----

    #[inline]
    fn value_id(&mut self, v: Value, with_result_no: bool) {
        let slot = self.names.slot(v);
        // Nearly every operand: a block argument or the one result of its
        // op, printed as its name (no look at the value's definition).
        if slot & MULTI == 0 {
            self.push_slot(slot);
        } else {
            self.result_id(v, with_result_no);
        }
    }
    /// [`Printer::value_id`] of a result of an op with several (or of a
    /// value with no name).
    #[cold]
    #[inline(never)]
    fn result_id(&mut self, v: Value, with_result_no: bool) {
        let (lookup, no) = match self.ctx.value_def(v) {
            ValueDef::BlockArg(..) => (v, None),
            ValueDef::Result(op, i) => {
                let results = self.ctx.results(op);
                if results.len() == 1 {
                    (v, None)
                } else {
                    match self.names.groups.get(&op) {
                        None => (results[0], Some(i)),
                        Some(g) => {
                            let pos = g.partition_point(|&s| s <= i);
                            let start = g[pos - 1];
                            let end = if pos < g.len() {
                                g[pos]
                            } else {
                                results.len() as u32
                            };
                            let no = if end - start != 1 {
                                Some(i - start)
                            } else {
                                None
                            };
                            (results[start as usize], no)
                        }
                    }
                }
            }
        };
        self.value_name(lookup);
        if let (Some(n), true) = (no, with_result_no) {
            self.out.push('#');
            push_u32(&mut self.out, n);
        }
    }
    /// The name `v` was given: `%name`, `%N`.
    fn value_name(&mut self, v: Value) {
        let slot = self.names.slot(v);
        if slot == NONE {
            // A value from outside the printed scope (an op printed on its
            // own, in a diagnostic), spelled as MLIR spells it.
            self.out.push_str("<<UNKNOWN SSA VALUE>>");
            return;
        }
        self.push_slot(slot & !MULTI);
    }
    /// Prints the name a (not `NONE`) slot holds.
    #[inline]
    fn push_slot(&mut self, slot: u32) {
        if slot >= NAMED {
            self.names.push_named(slot, &mut self.out);
        } else {
            self.push_number(slot);
        }
    }
    /// `%N`, from the texts of the numbers printed so far (the same few
    /// hundred recur in every function), each [`NUM_STRIDE`] bytes apart.
    #[inline]
    fn push_number(&mut self, n: u32) {
        let at = n as usize * NUM_STRIDE;
        if let Some(window) = self.nums.as_bytes().get(at..at + NUM_STRIDE) {
            // A whole `%N`: the rest of the window is cut off.
            let keep = self.out.len() + 1 + decimal_digits(n);
            self.out.0.extend_from_slice(window);
            self.out.0.truncate(keep);
        } else {
            self.push_new_number(n);
        }
    }
    /// [`Printer::push_number`] of a number not in the table yet.
    #[cold]
    #[inline(never)]
    fn push_new_number(&mut self, n: u32) {
        if n >= NUM_CACHED {
            self.out.push('%');
            push_u32(&mut self.out, n);
            return;
        }
        // Texts for every number up to `n`, each `%N` and spaces.
        let mut k = (self.nums.len() / NUM_STRIDE) as u32;
        while k <= n {
            let start = self.nums.len();
            self.nums.push('%');
            push_u32(&mut self.nums, k);
            let pad = start + NUM_STRIDE - self.nums.len();
            self.nums.push_str(&PADDING[..pad]);
            k += 1;
        }
        self.push_number(n);
    }
    #[inline]
    pub fn operand(&mut self, v: Value) {
        self.value_id(v, true);
    }
    pub fn operands(&mut self, vs: &[Value]) {
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.operand(v);
        }
    }
    /// The position of `b` in its region: the number its region's
    /// numbering gave it (no walk of the region's list per predecessor),
    /// else counted.
    fn block_position(&self, b: Block) -> usize {
        match self.names.blocks.get(b.index()).map(|&id| !id) {
            Some(id) if id != NONE => id as usize,
            _ => self.ctx.block_index(b),
        }
    }
    pub fn block_name(&mut self, b: Block) {
        match self.names.blocks.get(b.index()).map(|&id| !id) {
            Some(id) if id != NONE => {
                self.out.push_str("^bb");
                push_u32(&mut self.out, id);
            }
            _ => self.w("^INVALIDBLOCK"),
        }
    }

    // ----- types and attributes -----

    #[inline]
    pub fn ty(&mut self, t: Type) {
        match self.type_spans.get(t.index()) {
            Some(&(s, e)) if s != NONE => {
                self.out
                    .push_padded(&self.type_text, s as usize, (e - s) as usize);
            }
            _ => self.new_ty(t),
        }
    }
    /// [`Printer::ty`] of a type not printed before.
    #[cold]
    #[inline(never)]
    fn new_ty(&mut self, t: Type) {
        let i = t.index();
        if self.type_spans.len() <= i {
            self.type_spans.resize(i + 1, (NONE, NONE));
        }
        let s = open_piece(&mut self.type_text);
        print_type_into(self.ctx, t, &mut self.type_text);
        self.out.push_str(&self.type_text[s..]);
        let e = close_piece(&mut self.type_text);
        self.type_spans[i] = (s as u32, e as u32);
    }
    pub fn types(&mut self, ts: &[Type]) {
        for (i, &t) in ts.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.ty(t);
        }
    }
    /// `(A, B) -> R` as in function signatures (results parenthesized
    /// unless a single non-function type).
    pub fn functional_type(&mut self, ins: &[Type], outs: &[Type]) {
        self.w("(");
        self.types(ins);
        self.w(") -> ");
        self.result_types(outs);
    }
    pub fn result_types(&mut self, outs: &[Type]) {
        let wrap = outs.len() != 1 || matches!(self.ctx.kind(outs[0]), TypeKind::Function(..));
        if wrap {
            self.w("(");
        }
        self.types(outs);
        if wrap {
            self.w(")");
        }
    }
    pub fn attr(&mut self, a: Attribute) {
        self.cached_attr(a, false);
    }
    /// An attribute whose type is implied by context (`arith.constant 1 : i32`).
    pub fn attr_no_type(&mut self, a: Attribute) {
        self.cached_attr(a, true);
    }
    fn cached_attr(&mut self, a: Attribute, elide_type: bool) {
        let i = a.index();
        let spans = &mut self.attr_spans[usize::from(elide_type)];
        if let Some(&(s, e)) = spans.get(i) {
            if s != NONE {
                self.out
                    .push_padded(&self.type_text, s as usize, (e - s) as usize);
                return;
            }
        } else {
            spans.resize(i + 1, (NONE, NONE));
        }
        let s = open_piece(&mut self.type_text);
        let style = AttrStyle {
            ed: self.opts.edition,
            elide_large: self.elide_large_elements,
        };
        print_attr_ed(self.ctx, a, &mut self.type_text, elide_type, style);
        self.out.push_str(&self.type_text[s..]);
        let e = close_piece(&mut self.type_text);
        self.attr_spans[usize::from(elide_type)][i] = (s as u32, e as u32);
    }
    /// ` {a = 1 : i64, b}` without the elided names; nothing when empty.
    pub fn attr_dict(&mut self, op: Op, elided: &[&str]) {
        self.attr_dict_impl(op, elided, false)
    }
    /// ` attributes {...}`.
    pub fn attr_dict_kw(&mut self, op: Op, elided: &[&str]) {
        self.attr_dict_impl(op, elided, true)
    }
    fn attr_dict_impl(&mut self, op: Op, elided: &[&str], kw: bool) {
        // Most ops have no attributes left to print: test before
        // collecting, and skip the collection when nothing is elided.
        let ctx = self.ctx;
        let all = ctx.attrs(op);
        let kept = |k: &Symbol| !elided.contains(&ctx.str(*k));
        if !all.iter().any(|(k, _)| kept(k)) {
            return;
        }
        if all.iter().all(|(k, _)| kept(k)) {
            self.attr_entries(all, kw);
            return;
        }
        let attrs: Vec<(Symbol, Attribute)> =
            all.iter().filter(|(k, _)| kept(k)).copied().collect();
        self.attr_entries(&attrs, kw);
    }
    pub fn attr_entries(&mut self, attrs: &[(Symbol, Attribute)], kw: bool) {
        if attrs.is_empty() {
            return;
        }
        self.w(if kw { " attributes {" } else { " {" });
        let style = AttrStyle {
            ed: self.opts.edition,
            elide_large: self.elide_large_elements,
        };
        let mut text = String::new();
        print_dict_entries_ed(self.ctx, attrs, &mut text, style);
        self.out.push_str(&text);
        self.w("}");
    }

    // ----- ops, blocks, regions -----

    fn newline(&mut self) {
        self.out.push('\n');
    }
    /// A newline, then the indentation of the op being printed plus
    /// `extra`: for custom forms that span lines (`cf.switch`'s cases).
    pub fn newline_indented(&mut self, extra: usize) {
        self.newline();
        self.indent += extra;
        self.do_indent();
        self.indent -= extra;
    }
    fn do_indent(&mut self) {
        // Copies of a fixed size (see `push_padded`).
        let mut n = self.indent;
        while n >= PAD {
            self.out.push_str(PADDING);
            n -= PAD;
        }
        if n > 0 {
            self.out.push_padded(PADDING, 0, n);
        }
    }

    /// Prints an op at the current indentation (without a newline).
    pub fn op(&mut self, op: Op) {
        self.do_indent();
        self.op_no_indent(op);
    }
    fn op_no_indent(&mut self, op: Op) {
        let ctx = self.ctx;
        // mlir-opt meets an op's location before the op's text (its
        // regions included), though it prints it after.
        let loc_id = self
            .opts
            .debug_info
            .then(|| self.visit_location(ctx.op_loc(op), true));
        let results = ctx.results(op);
        if !results.is_empty()
            && (self.names.groups.is_empty() || !self.names.groups.contains_key(&op))
        {
            // One group: its first value's name, and how many it holds.
            self.value_name(results[0]);
            if results.len() > 1 {
                self.out.push(':');
                push_u32(&mut self.out, results.len() as u32);
            }
        } else if !results.is_empty() {
            // Only ops with several named result groups have an entry, so
            // the clone is rare.
            let groups = self.names.groups.get(&op).cloned();
            let groups: &[u32] = groups.as_deref().unwrap_or(&[0]);
            for (gi, &start) in groups.iter().enumerate() {
                if gi > 0 {
                    self.w(", ");
                }
                let end = groups.get(gi + 1).copied().unwrap_or(results.len() as u32);
                self.value_id(results[start as usize], false);
                if end - start > 1 {
                    self.out.push(':');
                    push_u32(&mut self.out, end - start);
                }
            }
        }
        let equals = if results.is_empty() { "" } else { " = " };
        let custom = if self.opts.generic {
            None
        } else {
            Some(self.custom_printer(op))
        };
        match custom {
            Some(OpPrint {
                print: Some(print),
                fits,
                at,
                len,
                plain,
            }) if fits.is_none_or(|f| f(self.ctx, op)) => {
                if plain {
                    // ` = ` (if there are results) and the name in one copy.
                    let skip = 3 - equals.len() as u32;
                    self.out.push_padded(
                        &self.spelling_text,
                        (at + skip) as usize,
                        (len + 3 - skip) as usize,
                    );
                } else {
                    self.w(equals);
                    let spelled = self.spelled(op);
                    self.w(spelled);
                }
                print(self, op);
            }
            _ => {
                self.w(equals);
                self.generic_op(op);
            }
        }
        if let Some(id) = loc_id {
            // A placeholder for the alias, named once all are known.
            self.w(" loc(\u{1}");
            push_u32(&mut self.out, id);
            self.w("\u{1})");
        }
    }

    /// The text of a location, without `loc(...)`.
    fn location_text(&mut self, l: Location) -> String {
        let saved = std::mem::take(&mut self.out);
        self.location_inner(l);
        std::mem::replace(&mut self.out, saved).into_string()
    }

    /// Records a location met by the printer; `deferrable`: printed
    /// through an alias defined after the module (op locations), else the
    /// alias is defined before it.
    fn visit_location(&mut self, l: Location, deferrable: bool) -> u32 {
        let text = self.location_text(l);
        let id = match self.loc_ids.get(&text) {
            Some(&id) => id,
            None => {
                let id = self.locs.len() as u32;
                self.loc_ids.insert(text.clone(), id);
                self.locs.push((text, false));
                id
            }
        };
        if !deferrable {
            self.locs[id as usize].1 = true;
        }
        id
    }

    /// The location of a block or function argument: printed in full,
    /// though mlir-opt (14, 15) also gives it an alias, defined on top.
    pub fn arg_location(&mut self, l: Location) {
        self.visit_location(l, false);
        self.location(l);
    }

    /// With debug info, names the location aliases of the printed text as
    /// mlir-opt (13 to 15) does: every distinct location is `#locN`, N in
    /// the order the printer met them (`#loc` if there is only one); op
    /// locations print as `loc(#locN)` and their definitions follow the
    /// op, while the aliases of argument locations (printed in full) are
    /// defined before it.
    pub fn finish_locations(&mut self) {
        if self.locs.is_empty() {
            return;
        }
        let single = self.locs.len() == 1;
        let name = |i: usize| {
            if single {
                "#loc".to_string()
            } else {
                format!("#loc{i}")
            }
        };
        let mut top = String::new();
        let mut bottom = String::new();
        for (i, (text, eager)) in self.locs.iter().enumerate() {
            let def = format!("{} = loc({text})\n", name(i));
            if *eager {
                top.push_str(&def);
            } else {
                bottom.push_str(&def);
            }
        }
        let text = std::mem::take(&mut self.out).into_string();
        let mut out = Output::default();
        out.reserve(top.len() + text.len() + bottom.len());
        out.push_str(&top);
        let mut rest = text.as_str();
        while let Some(i) = rest.find('\u{1}') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let end = after.find('\u{1}').unwrap_or(after.len());
            let id: usize = after[..end].parse().unwrap_or(0);
            out.push_str(&name(id));
            rest = after.get(end + 1..).unwrap_or("");
        }
        out.push_str(rest);
        out.push_str(&bottom);
        self.out = out;
    }

    /// `loc(...)`.
    pub fn location(&mut self, l: Location) {
        self.w("loc(");
        self.location_inner(l);
        self.w(")");
    }
    fn location_inner(&mut self, l: Location) {
        match self.ctx.loc_kind(l).clone() {
            LocKind::Unknown => self.w("unknown"),
            LocKind::FileLineCol(f, line, col) => {
                let mut text = String::new();
                print_string(self.ctx.str(f), &mut text);
                self.out.push_str(&text);
                let _ = write!(self.out, ":{line}:{col}");
            }
            LocKind::Name(n, child) => {
                let mut text = String::new();
                print_string(self.ctx.str(n), &mut text);
                self.out.push_str(&text);
                // An unknown child is not printed: `loc("name")`.
                let child = child.filter(|&c| *self.ctx.loc_kind(c) != LocKind::Unknown);
                if let Some(c) = child {
                    self.w("(");
                    self.location_inner(c);
                    self.w(")");
                }
            }
            LocKind::CallSite(a, b) => {
                self.w("callsite(");
                self.location_inner(a);
                self.w(" at ");
                self.location_inner(b);
                self.w(")");
            }
            LocKind::Fused(ls, meta) => {
                self.w("fused");
                if let Some(m) = meta {
                    self.w("<");
                    self.attr(m);
                    self.w(">");
                }
                self.w("[");
                for (i, l) in ls.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.location_inner(*l);
                }
                self.w("]");
            }
        }
    }

    /// The generic form `"name"(...) ... : (...) -> ...`.
    pub fn generic_op(&mut self, op: Op) {
        let name = generic_name(self.ctx.name(op), self.opts.edition);
        let mut text = String::new();
        print_string(&name, &mut text);
        self.out.push_str(&text);
        self.w("(");
        let operands = self.ctx.operands(op);
        self.operands(operands);
        self.w(")");
        let succs = self.ctx.successors(op);
        if !succs.is_empty() {
            self.w("[");
            for (i, &s) in succs.iter().enumerate() {
                if i > 0 {
                    self.w(", ");
                }
                self.block_name(s);
            }
            self.w("]");
        }
        let regions = self.ctx.regions_of(op);
        if !regions.is_empty() {
            self.w(" (");
            for (i, &r) in regions.iter().enumerate() {
                if i > 0 {
                    self.w(", ");
                }
                // 13 printed a space before each region: `( {`, `},  {`.
                if self.opts.edition == Edition::V13 {
                    self.w(" ");
                }
                self.region_full(r, true, true, true);
            }
            self.w(")");
        }
        if let Some(print) = self.generic_attrs_printer(op) {
            print(self, op);
        } else if self.opts.edition != Edition::V15 && self.ctx.name(op) == "func.func" {
            // 13 and 14 named the signature attribute `type`.
            let mut attrs: Vec<(Symbol, &str, Attribute)> = self
                .ctx
                .attrs(op)
                .iter()
                .map(|&(k, a)| {
                    let n = self.ctx.str(k);
                    (k, if n == "function_type" { "type" } else { n }, a)
                })
                .collect();
            attrs.sort_by(|a, b| a.1.cmp(b.1));
            let ty = self.ctx.lookup_sym("type");
            let entries: Vec<(Symbol, Attribute)> = attrs
                .iter()
                .map(|&(k, n, a)| (if n == "type" { ty.unwrap_or(k) } else { k }, a))
                .collect();
            self.attr_entries(&entries, false);
        } else {
            self.attr_dict(op, &[]);
        }
        self.w(" : ");
        let ins: Vec<Type> = operands.iter().map(|&v| self.ctx.value_type(v)).collect();
        let outs: Vec<Type> = self
            .ctx
            .results(op)
            .iter()
            .map(|&v| self.ctx.value_type(v))
            .collect();
        self.functional_type(&ins, &outs);
    }

    /// `{ ... }` with MLIR's rules for the entry block header.
    pub fn region(&mut self, r: Region, print_entry_args: bool, print_terminators: bool) {
        self.region_full(r, print_entry_args, print_terminators, false)
    }
    pub fn region_full(
        &mut self,
        r: Region,
        entry_args: bool,
        terminators: bool,
        empty_block: bool,
    ) {
        self.w("{");
        self.newline();
        let ctx = self.ctx;
        if let Some(entry) = ctx.entry_block(r) {
            let header = (empty_block && ctx.first_op(entry).is_none())
                || (entry_args && !ctx.block_args(entry).is_empty());
            self.block(entry, header, terminators);
            for b in ctx.region_blocks(r).skip(1) {
                self.block(b, true, true);
            }
        }
        self.do_indent();
        self.w("}");
    }
    fn block(&mut self, b: Block, header: bool, terminators: bool) {
        if header {
            self.do_indent();
            self.block_name(b);
            let args = self.ctx.block_args(b);
            if !args.is_empty() {
                self.w("(");
                for (i, &a) in args.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.operand(a);
                    self.w(": ");
                    let t = self.ctx.value_type(a);
                    self.ty(t);
                    if self.opts.debug_info {
                        self.w(" ");
                        let l = self.ctx.value_loc(a);
                        self.arg_location(l);
                    }
                }
                self.w(")");
            }
            self.w(":");
            // Most blocks have at most one predecessor: no list for them.
            let ctx = self.ctx;
            let mut preds = ctx.pred_ops(b).iter().filter_map(|&o| ctx.parent_block(o));
            let (first, second) = (preds.next(), preds.next());
            let is_entry = ctx.parent_region(b).and_then(|r| ctx.entry_block(r)) == Some(b);
            if let (Some(p), None) = (first, second) {
                self.w("  // pred: ");
                self.block_name(p);
            } else if first.is_none() {
                // 13 also marked entry blocks that print a header.
                if !is_entry || self.opts.edition == Edition::V13 {
                    self.w("  // no predecessors");
                }
            } else {
                let mut ids: Vec<(usize, Block)> = first
                    .into_iter()
                    .chain(second)
                    .chain(preds)
                    .map(|p| (self.block_position(p), p))
                    .collect();
                ids.sort_by_key(|x| x.0);
                let _ = write!(self.out, "  // {} preds: ", ids.len());
                for (i, (_, p)) in ids.into_iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.block_name(p);
                }
            }
            self.newline();
        }
        self.indent += 2;
        let ctx = self.ctx;
        let last = ctx.last_op(b);
        let skip_last = !terminators && last.is_some_and(|o| ctx.traits_of(o).is_terminator);
        // The last op of the prerendered run being skipped over.
        let mut in_run: Option<Op> = None;
        for o in ctx.block_ops_iter(b) {
            if skip_last && Some(o) == last {
                break;
            }
            if let Some(end) = in_run {
                if o == end {
                    in_run = None;
                }
                continue;
            }
            if let Some(pre) = self.prerendered.as_mut() {
                if let Some((first, end, text)) = pre.runs.get_mut(pre.next) {
                    if *first == o {
                        // Handed over whole: copying hundreds of MB
                        // costs more in page faults than printing it.
                        self.pieces.push(std::mem::take(&mut self.out).into_bytes());
                        pre.slots.push(self.pieces.len());
                        self.pieces.push(std::mem::take(text));
                        pre.next += 1;
                        if *end != o {
                            in_run = Some(*end);
                        }
                        continue;
                    }
                }
            }
            self.op(o);
            self.newline();
        }
        self.indent -= 2;
    }

    /// `^bb1(%0, %1 : i32, f32)` or `^bb1`.
    pub fn successor_with_args(&mut self, b: Block, args: &[Value]) {
        self.block_name(b);
        if !args.is_empty() {
            self.w("(");
            self.operands(args);
            self.w(" : ");
            let tys: Vec<Type> = args.iter().map(|&v| self.ctx.value_type(v)).collect();
            self.types(&tys);
            self.w(")");
        }
    }
}

/// Prints a type to a string.
pub fn print_type(ctx: &Context, t: Type) -> String {
    let mut s = String::new();
    print_type_into(ctx, t, &mut s);
    s
}

fn dims(out: &mut String, shape: &[Dim]) {
    for d in shape {
        match d {
            Some(n) => {
                let _ = write!(out, "{n}x");
            }
            None => out.push_str("?x"),
        }
    }
}

pub fn print_type_into(ctx: &Context, t: Type, out: &mut String) {
    match ctx.kind(t) {
        TypeKind::Integer(w, s) => {
            let p = match s {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            out.push_str(p);
            push_u32(out, *w);
        }
        TypeKind::Index => out.push_str("index"),
        TypeKind::BF16 => out.push_str("bf16"),
        TypeKind::F16 => out.push_str("f16"),
        TypeKind::F32 => out.push_str("f32"),
        TypeKind::F64 => out.push_str("f64"),
        TypeKind::F80 => out.push_str("f80"),
        TypeKind::F128 => out.push_str("f128"),
        TypeKind::None => out.push_str("none"),
        TypeKind::Function(ins, outs) => {
            out.push('(');
            type_list(ctx, ins, out);
            out.push_str(") -> ");
            let wrap = outs.len() != 1 || matches!(ctx.kind(outs[0]), TypeKind::Function(..));
            if wrap {
                out.push('(');
            }
            type_list(ctx, outs, out);
            if wrap {
                out.push(')');
            }
        }
        TypeKind::MemRef {
            shape,
            elem,
            layout,
            memory_space,
        } => {
            out.push_str("memref<");
            dims(out, shape);
            print_type_into(ctx, *elem, out);
            if let Some(l) = layout {
                out.push_str(", ");
                print_attr_into(ctx, *l, out, false);
            }
            if let Some(m) = memory_space {
                out.push_str(", ");
                print_attr_into(ctx, *m, out, true);
            }
            out.push('>');
        }
        TypeKind::UnrankedMemRef { elem, memory_space } => {
            out.push_str("memref<*x");
            print_type_into(ctx, *elem, out);
            if let Some(m) = memory_space {
                out.push_str(", ");
                print_attr_into(ctx, *m, out, true);
            }
            out.push('>');
        }
        TypeKind::Vector { shape, elem, .. } => {
            out.push_str("vector<");
            for d in shape {
                let _ = write!(out, "{d}x");
            }
            print_type_into(ctx, *elem, out);
            out.push('>');
        }
        TypeKind::Tensor {
            shape,
            elem,
            encoding,
        } => {
            out.push_str("tensor<");
            dims(out, shape);
            print_type_into(ctx, *elem, out);
            if let Some(e) = encoding {
                out.push_str(", ");
                print_attr_into(ctx, *e, out, false);
            }
            out.push('>');
        }
        TypeKind::UnrankedTensor(e) => {
            out.push_str("tensor<*x");
            print_type_into(ctx, *e, out);
            out.push('>');
        }
        TypeKind::Tuple(ts) => {
            out.push_str("tuple<");
            type_list(ctx, ts, out);
            out.push('>');
        }
        TypeKind::Complex(t) => {
            out.push_str("complex<");
            print_type_into(ctx, *t, out);
            out.push('>');
        }
        TypeKind::Opaque { dialect, body } => {
            out.push('!');
            out.push_str(ctx.str(*dialect));
            out.push_str(body);
        }
        TypeKind::Dialect(d) => match ctx.type_printer(d.dialect) {
            Some(print) => print(ctx, t, out),
            None => print_dialect_type_params(ctx, d, out),
        },
    }
}

/// A dialect type whose dialect registered no printer (a context built
/// without its dialect): `!dialect.mnemonic<param, ...>`, for diagnostics.
fn print_dialect_type_params(ctx: &Context, d: &DialectType, out: &mut String) {
    out.push('!');
    out.push_str(ctx.str(d.dialect));
    out.push('.');
    out.push_str(ctx.str(d.mnemonic));
    if d.params.is_empty() {
        return;
    }
    out.push('<');
    for (i, p) in d.params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match p {
            TypeParam::Type(t) => print_type_into(ctx, *t, out),
            TypeParam::Int(n) => {
                let _ = write!(out, "{n}");
            }
            TypeParam::Str(s) => print_string(ctx.str(*s), out),
            TypeParam::Flag(f) => out.push_str(if *f { "true" } else { "false" }),
            TypeParam::Types(ts) => {
                out.push('(');
                type_list(ctx, ts, out);
                out.push(')');
            }
            TypeParam::Attr(a) => print_attr_into(ctx, *a, out, false),
        }
    }
    out.push('>');
}

fn type_list(ctx: &Context, ts: &[Type], out: &mut String) {
    for (i, &t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        print_type_into(ctx, t, out);
    }
}

/// `llvm::printEscapedString` inside quotes.
pub fn print_string(s: &str, out: &mut String) {
    print_string_bytes(s.as_bytes(), out)
}

/// [`print_string`] of bytes that need not be UTF-8 (a `StringAttr`).
pub fn print_string_bytes(s: &[u8], out: &mut String) {
    out.push('"');
    for &c in s {
        if c == b'\\' {
            out.push_str("\\\\");
        } else if (0x20..0x7f).contains(&c) && c != b'"' {
            out.push(c as char);
        } else {
            let _ = write!(out, "\\{:02X}", c);
        }
    }
    out.push('"');
}

/// An attribute's name in a dictionary: bare if it can be, else quoted.
pub fn print_attr_name(name: &str, out: &mut String) {
    if is_bare_identifier(name) {
        out.push_str(name);
    } else {
        print_string(name, out);
    }
}

fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
}

pub fn print_symbol(s: &str, out: &mut String) {
    out.push('@');
    if is_bare_identifier(s)
        || (!s.is_empty()
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"_$.-".contains(&c))
            && !s.as_bytes()[0].is_ascii_digit())
    {
        out.push_str(s);
    } else {
        print_string(s, out);
    }
}

pub fn print_dict_entries(ctx: &Context, attrs: &[(Symbol, Attribute)], out: &mut String) {
    print_dict_entries_ed(ctx, attrs, out, AttrStyle::V15)
}

/// How attributes print: in which generation's spelling, and whether
/// large dense elements are elided (as in diagnostics).
#[derive(Clone, Copy)]
struct AttrStyle {
    ed: Edition,
    /// 14 and 15's diagnostics print a dense attribute of more than
    /// [`ELIDE_ELEMENTS_ABOVE`] elements (not a splat) as
    /// `opaque<"elided_large_const", "0xDEADBEEF">`.
    elide_large: bool,
}

impl AttrStyle {
    const V15: AttrStyle = AttrStyle {
        ed: Edition::V15,
        elide_large: false,
    };
}

/// MLIR's `elideLargeElementsAttrs` default limit.
const ELIDE_ELEMENTS_ABOVE: usize = 16;

/// [`print_dict_entries`] in the spelling of `ed` (dense `i1` storage).
fn print_dict_entries_ed(
    ctx: &Context,
    attrs: &[(Symbol, Attribute)],
    out: &mut String,
    st: AttrStyle,
) {
    for (i, &(k, a)) in attrs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let name = ctx.str(k);
        if is_bare_identifier(name) {
            out.push_str(name);
        } else {
            print_string(name, out);
        }
        if *ctx.attr_kind(a) != AttrKind::Unit {
            out.push_str(" = ");
            print_attr_ed(ctx, a, out, false, st);
        }
    }
}

/// MLIR's float spelling: `APFloat::toString` with 6 digits, in `%e`
/// form, when that reads back to the same value in the type's own
/// precision; else `APFloat`'s natural spelling when it has a decimal
/// point; else hex (as inf and NaN).
/// The layout of a float type: explicit significand bits, exponent bits,
/// total width. `f80` stores its integer bit explicitly (bit 63).
fn float_layout(k: &TypeKind) -> (u32, u32, u32) {
    match k {
        TypeKind::F16 => (10, 5, 16),
        TypeKind::BF16 => (7, 8, 16),
        TypeKind::F32 => (23, 8, 32),
        TypeKind::F80 => (63, 15, 80),
        TypeKind::F128 => (112, 15, 128),
        _ => (52, 11, 64),
    }
}

/// `f` rounded to the float type `k` (to nearest, ties to even, too large
/// is infinite), held in an `f64`: MLIR reads a decimal literal as a
/// double and converts it, so every value of a type fits a double once
/// parsed, `f80` and `f128` included (they are wider: the conversion is
/// exact).
pub fn round_float(k: &TypeKind, f: f64) -> f64 {
    match k {
        TypeKind::F32 => f as f32 as f64,
        TypeKind::F16 | TypeKind::BF16 => {
            if f == 0.0 || !f.is_finite() {
                return f;
            }
            let (mant, exp_bits, _) = float_layout(k);
            let emax = (1i32 << (exp_bits - 1)) - 1;
            let emin = 1 - emax;
            let e = ((f.to_bits() >> 52) & 0x7ff) as i32 - 1023;
            // The value of the last significand bit, scaled exactly.
            let q = e.max(emin) - mant as i32;
            let r = (f * 2f64.powi(-q)).round_ties_even() * 2f64.powi(q);
            let max = (2.0 - 2f64.powi(-(mant as i32))) * 2f64.powi(emax);
            if r.abs() > max {
                f64::INFINITY.copysign(f)
            } else {
                r
            }
        }
        _ => f,
    }
}

/// The bit pattern of `v` (a value of `k`, see [`round_float`]) in `k`'s
/// own layout, NaN payloads kept as far as the narrower layout allows.
pub fn float_to_bits(k: &TypeKind, v: f64) -> u128 {
    let (mant, exp_bits, width) = float_layout(k);
    let b = v.to_bits();
    if mant == 52 {
        return u128::from(b);
    }
    if *k == TypeKind::F32 && !v.is_nan() {
        return u128::from((v as f32).to_bits());
    }
    let sign = u128::from(b >> 63) << (width - 1);
    let bias = (1i64 << (exp_bits - 1)) - 1;
    let exp_all = (1u128 << exp_bits) - 1;
    let int_bit = if *k == TypeKind::F80 { 1u128 << 63 } else { 0 };
    // f80's exponent sits above its explicit integer bit.
    let exp_at = mant + u32::from(*k == TypeKind::F80);
    let frac64 = u128::from(b & ((1 << 52) - 1));
    let shift = |x: u128| {
        if mant >= 52 {
            x << (mant - 52)
        } else {
            x >> (52 - mant)
        }
    };
    if !v.is_finite() {
        let mut payload = shift(frac64);
        if v.is_nan() && payload == 0 {
            payload = 1;
        }
        return sign | (exp_all << exp_at) | int_bit | payload;
    }
    if v == 0.0 {
        return sign;
    }
    let e = ((b >> 52) & 0x7ff) as i64 - 1023;
    // The significand with its leading 1, as 53 bits.
    let (e, sig) = if (b >> 52) & 0x7ff == 0 {
        // A double subnormal: normalise.
        let lz = frac64.leading_zeros() as i64 - (128 - 52);
        (-1022 - lz - 1, frac64 << (lz + 1))
    } else {
        (e, frac64 | (1 << 52))
    };
    let biased = e + bias;
    if biased <= 0 {
        // Subnormal in `k` (exact: `v` was rounded to `k` already).
        let s = 1 - biased;
        let m = if mant >= 52 {
            (sig << (mant - 52)) >> s
        } else {
            sig >> (52 - mant as i64 + s)
        };
        return sign | m;
    }
    let frac = shift(sig & ((1 << 52) - 1));
    sign | ((biased as u128) << exp_at) | int_bit | frac
}

/// The value of the bit pattern `bits` of `k` as a double (`f80` and
/// `f128` lose what a double cannot hold).
pub fn float_from_bits(k: &TypeKind, bits: u128) -> f64 {
    let (mant, exp_bits, width) = float_layout(k);
    if mant == 52 {
        return f64::from_bits(bits as u64);
    }
    let neg = (bits >> (width - 1)) & 1 == 1;
    let exp_all = (1u128 << exp_bits) - 1;
    let exp = (bits >> (mant + u32::from(*k == TypeKind::F80))) & exp_all;
    let frac_mask = if *k == TypeKind::F80 {
        (1u128 << 63) - 1
    } else {
        (1u128 << mant) - 1
    };
    let frac = bits & frac_mask;
    let bias = (1i32 << (exp_bits - 1)) - 1;
    let sign = if neg { -1.0 } else { 1.0 };
    if exp == exp_all {
        if frac == 0 {
            return f64::INFINITY * sign;
        }
        let payload = if mant >= 52 {
            frac >> (mant - 52)
        } else {
            frac << (52 - mant)
        } as u64
            & ((1 << 52) - 1);
        let payload = if payload == 0 { 1 << 51 } else { payload };
        return f64::from_bits((u64::from(neg) << 63) | (0x7ff << 52) | payload);
    }
    let scale = |e: i32| 2f64.powi(e.clamp(-1074 - 64, 1100));
    let f = frac as f64 * scale(-(mant as i32));
    let v = if exp == 0 {
        f * scale(1 - bias)
    } else if *k == TypeKind::F80 {
        (f + ((bits >> 63) & 1) as f64) * scale(exp as i32 - bias)
    } else {
        (1.0 + f) * scale(exp as i32 - bias)
    };
    sign * v
}

pub fn format_float(v: f64, k: &TypeKind) -> String {
    // `f80` and `f128` read back at their own precision: exactly.
    if matches!(k, TypeKind::F80 | TypeKind::F128) && v.is_finite() && v != 0.0 {
        if let Some(s) = crate::widefloat::format_wide_float(float_to_bits(k, v), k) {
            return s;
        }
    }
    if v.is_finite() {
        let s = apfloat_to_string(v, k, 6, 0, false);
        let same = match k {
            TypeKind::F32 => s.parse::<f32>().map(f32::to_bits) == Ok((v as f32).to_bits()),
            TypeKind::F16 | TypeKind::BF16 => {
                let back: f64 = s.parse().unwrap_or(f64::NAN);
                round_float(k, back).to_bits() == v.to_bits()
            }
            _ => s.parse::<f64>().map(f64::to_bits) == Ok(v.to_bits()),
        };
        if same {
            return s;
        }
        let natural = apfloat_to_string(v, k, 0, 3, true);
        if natural.contains('.') {
            return natural;
        }
    }
    format!("0x{:X}", float_to_bits(k, v))
}

/// A wide float's bits (`f80`, `f128`) as MLIR prints the value; other
/// types (never made) in hex.
fn format_wide(bits: u128, k: &TypeKind) -> String {
    crate::widefloat::format_wide_float(bits, k).unwrap_or_else(|| format!("0x{bits:X}"))
}

/// The number of bits of the decimal number `digits`.
fn bit_length(digits: &[u8]) -> u32 {
    let mut limbs: Vec<u32> = vec![];
    for &d in digits {
        let mut carry = u64::from(d - b'0');
        for l in limbs.iter_mut() {
            let x = u64::from(*l) * 10 + carry;
            *l = x as u32;
            carry = x >> 32;
        }
        if carry != 0 {
            limbs.push(carry as u32);
        }
    }
    match limbs.last() {
        Some(&top) => 32 * (limbs.len() as u32 - 1) + (32 - top.leading_zeros()),
        None => 0,
    }
}

/// `APFloat::toString(FormatPrecision, FormatMaxPadding, TruncateZero)` of
/// a finite `v` of the float type `k`, with its rounding: the exact
/// decimal significand first loses the digits beyond what
/// `FormatPrecision` needs by truncation, then the rest rounds half up.
/// Both steps matter: `0.9 : f32` reads `8.999990e-01` at 6 digits, which
/// does not read back, so MLIR prints `0.899999976`.
fn apfloat_to_string(
    v: f64,
    k: &TypeKind,
    precision: u32,
    max_padding: u32,
    truncate_zero: bool,
) -> String {
    if v == 0.0 {
        let mut out = String::new();
        if v.is_sign_negative() {
            out.push('-');
        }
        if max_padding == 0 {
            if truncate_zero {
                out.push_str("0.0E+0");
            } else {
                out.push_str("0.0");
                out.push_str(&"0".repeat(precision.saturating_sub(1) as usize));
                out.push_str("e+00");
            }
        } else {
            out.push('0');
        }
        return out;
    }
    let bits_of_precision: u32 = match k {
        TypeKind::F32 => 24,
        TypeKind::F16 => 11,
        TypeKind::BF16 => 8,
        TypeKind::F80 => 64,
        TypeKind::F128 => 113,
        _ => 53,
    };
    // The exact value as an integer significand and a power of ten.
    let a = v.abs();
    let (sig, exp): (Vec<u8>, i64) = if a.fract() == 0.0 {
        (format!("{a:.0}").into_bytes(), 0)
    } else {
        let s = format!("{a:.800e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let e: i64 = e.parse().unwrap_or(0);
        let d: Vec<u8> = m.bytes().filter(u8::is_ascii_digit).collect();
        let n = d.iter().rposition(|&c| c != b'0').map_or(1, |i| i + 1);
        (d[..n].to_vec(), e - (n as i64 - 1))
    };
    apfloat_digits_to_string(
        v.is_sign_negative(),
        sig,
        exp,
        bits_of_precision,
        precision,
        max_padding,
        truncate_zero,
    )
}

/// The rest of `APFloat::toString` once the value is known exactly as
/// decimal digits `sig` times `10^exp` (not zero): the truncation to what
/// `precision` digits need, the rounding, the layout. `bits_of_precision`:
/// the type's significand width, for the default precision.
pub(crate) fn apfloat_digits_to_string(
    neg: bool,
    mut sig: Vec<u8>,
    mut exp: i64,
    bits_of_precision: u32,
    precision: u32,
    max_padding: u32,
    truncate_zero: bool,
) -> String {
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    let precision = if precision == 0 {
        2 + bits_of_precision * 59 / 196
    } else {
        precision
    };
    // Digits more precise than needed go, truncated.
    let bits = bit_length(&sig);
    // 196/59 slightly overestimates log2(10).
    let required = (precision * 196).div_ceil(59);
    if bits > required {
        let removable = ((bits - required) * 59 / 196) as usize;
        if removable > 0 && removable < sig.len() {
            sig.truncate(sig.len() - removable);
            exp += removable as i64;
        } else if removable >= sig.len() {
            sig = vec![b'0'];
            exp += removable as i64;
        }
    }
    // Trailing zeros go (into the exponent).
    while sig.len() > 1 && sig.last() == Some(&b'0') {
        sig.pop();
        exp += 1;
    }
    // Then round half up to `precision` digits.
    let p = precision as usize;
    if sig.len() > p {
        let dropped = sig.len() - p;
        let up = sig[p] >= b'5';
        sig.truncate(p);
        exp += dropped as i64;
        if up {
            let mut i = p;
            loop {
                if i == 0 {
                    // Carried through every digit (each popped digit
                    // already moved the exponent): one digit, 1.
                    sig = vec![b'1'];
                    break;
                }
                i -= 1;
                if sig[i] == b'9' {
                    sig.pop();
                    exp += 1;
                } else {
                    sig[i] += 1;
                    break;
                }
            }
        }
        while sig.len() > 1 && sig.last() == Some(&b'0') {
            sig.pop();
            exp += 1;
        }
    }
    let n = sig.len() as i64;
    let digits = std::str::from_utf8(&sig).unwrap_or("0");
    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp > i64::from(max_padding) || n + exp > i64::from(precision)
    } else {
        let msd = exp + n - 1;
        msd < 0 && -msd > i64::from(max_padding)
    };
    if scientific {
        let e = exp + n - 1;
        out.push_str(&digits[..1]);
        out.push('.');
        if n == 1 && truncate_zero {
            out.push('0');
        } else {
            out.push_str(&digits[1..]);
        }
        if !truncate_zero && i64::from(precision) > n - 1 {
            out.push_str(&"0".repeat((i64::from(precision) - n + 1) as usize));
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if e >= 0 { '+' } else { '-' });
        if truncate_zero {
            let _ = write!(out, "{}", e.abs());
        } else {
            let _ = write!(out, "{:02}", e.abs());
        }
    } else if exp >= 0 {
        out.push_str(digits);
        out.push_str(&"0".repeat(exp as usize));
    } else {
        let whole = exp + n;
        if whole > 0 {
            out.push_str(&digits[..whole as usize]);
            out.push('.');
            out.push_str(&digits[whole as usize..]);
        } else {
            out.push_str("0.");
            out.push_str(&"0".repeat((-whole) as usize));
            out.push_str(digits);
        }
    }
    out
}

fn dense_elem(ctx: &Context, e: &DenseElem, et: Type, out: &mut String) {
    match e {
        DenseElem::Int(i) => {
            let _ = write!(out, "{i}");
        }
        DenseElem::Float(b) => out.push_str(&format_float(f64::from_bits(*b), ctx.kind(et))),
        DenseElem::WideFloat(bits) => out.push_str(&format_wide(*bits, ctx.kind(et))),
        DenseElem::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
}

fn dense_nested(ctx: &Context, elems: &[DenseElem], shape: &[i64], et: Type, out: &mut String) {
    if shape.is_empty() {
        if let Some(e) = elems.first() {
            dense_elem(ctx, e, et, out);
        }
        return;
    }
    let inner: i64 = shape[1..].iter().product();
    out.push('[');
    for i in 0..shape[0] as usize {
        if i > 0 {
            out.push_str(", ");
        }
        let s = i * inner as usize;
        dense_nested(ctx, &elems[s..s + inner as usize], &shape[1..], et, out);
    }
    out.push(']');
}

/// 14 and 15 never see a splat of zero-width integers: their storage
/// holds no bits to tell one, so the elements are listed (up to the hex
/// threshold, and then the raw storage is empty). A rank-0 one, where
/// upstream crashes, prints its element.
fn dense_zero_width(ctx: &Context, elems: &[DenseElem], t: Type, et: Type, out: &mut String) {
    let shape: Vec<i64> = match ctx.kind(t) {
        TypeKind::Vector { shape, .. } => shape.clone(),
        TypeKind::Tensor { shape, .. } | TypeKind::MemRef { shape, .. } => {
            shape.iter().map(|d| d.unwrap_or(0)).collect()
        }
        _ => vec![1],
    };
    // Wrapping, as upstream's `int64_t` count (a huge shape counts 0).
    let n = shape.iter().fold(1i64, |a, &d| a.wrapping_mul(d)).max(0) as usize;
    if n > DENSE_HEX_THRESHOLD {
        out.push_str("\"0x\"");
        return;
    }
    // No elements at all print as nothing, not as empty lists.
    let Some(e) = elems.first().filter(|_| n > 0) else {
        return;
    };
    dense_nested(ctx, &vec![e.clone(); n], &shape, et, out);
}

/// Prints an attribute; `elide_type` drops the `: type` of scalars.
pub fn print_attr_into(ctx: &Context, a: Attribute, out: &mut String, elide_type: bool) {
    print_attr_ed(ctx, a, out, elide_type, AttrStyle::V15)
}

/// mlir-opt prints a dense attribute of more than this many elements (not
/// a splat) as its raw storage in hex: `dense<"0x0100...">`.
const DENSE_HEX_THRESHOLD: usize = 100;

/// The raw storage of dense elements as MLIR keeps it, little-endian:
/// each element in its width rounded up to bytes, except `i1`, packed
/// eight to a byte (13 and 14 then pad with zero bytes to one byte per
/// element).
fn dense_raw_hex(ctx: &Context, elems: &[DenseElem], et: Type, ed: Edition, out: &mut String) {
    let k = ctx.kind(et);
    let mut bytes: Vec<u8> = vec![];
    if *k == TypeKind::Integer(1, Signedness::Signless)
        || elems.iter().all(|e| matches!(e, DenseElem::Bool(_)))
    {
        bytes.resize(elems.len().div_ceil(8), 0);
        for (i, e) in elems.iter().enumerate() {
            let on = match e {
                DenseElem::Bool(b) => *b,
                DenseElem::Int(v) => *v & 1 != 0,
                DenseElem::Float(b) => *b != 0,
                DenseElem::WideFloat(b) => *b != 0,
            };
            if on {
                bytes[i / 8] |= 1 << (i % 8);
            }
        }
        if ed != Edition::V15 {
            bytes.resize(elems.len(), 0);
        }
    } else {
        let width = match k {
            TypeKind::Index => 64,
            _ => k.bit_width().unwrap_or(64),
        };
        let nbytes = width.div_ceil(8) as usize;
        for e in elems {
            let raw: u128 = match e {
                DenseElem::Int(v) => *v as u128,
                DenseElem::Float(b) => float_to_bits(k, f64::from_bits(*b)),
                DenseElem::WideFloat(b) => *b,
                DenseElem::Bool(b) => u128::from(*b),
            };
            bytes.extend_from_slice(&raw.to_le_bytes()[..nbytes.min(16)]);
        }
    }
    out.push_str("\"0x");
    for b in bytes {
        let _ = write!(out, "{b:02X}");
    }
    out.push('"');
}

fn print_attr_ed(ctx: &Context, a: Attribute, out: &mut String, elide_type: bool, st: AttrStyle) {
    let ed = st.ed;
    match ctx.attr_kind(a) {
        AttrKind::Unit => out.push_str("unit"),
        AttrKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        AttrKind::Integer(v, t) => {
            if *ctx.kind(*t) == TypeKind::Integer(1, Signedness::Signless) {
                out.push_str(if *v != 0 { "true" } else { "false" });
                return;
            }
            let _ = write!(out, "{v}");
            if !elide_type {
                out.push_str(" : ");
                print_type_into(ctx, *t, out);
            }
        }
        AttrKind::WideInteger(bits, t) => {
            let (w, unsigned) = match ctx.kind(*t) {
                TypeKind::Integer(w, s) => (*w, *s == Signedness::Unsigned),
                _ => (64 * bits.len() as u32, false),
            };
            out.push_str(&mlir_async_ir::wide::to_decimal(bits, w, !unsigned));
            if !elide_type {
                out.push_str(" : ");
                print_type_into(ctx, *t, out);
            }
        }
        AttrKind::Float(bits, t) => {
            out.push_str(&format_float(f64::from_bits(*bits), ctx.kind(*t)));
            if !elide_type {
                out.push_str(" : ");
                print_type_into(ctx, *t, out);
            }
        }
        AttrKind::WideFloat(bits, t) => {
            out.push_str(&format_wide(*bits, ctx.kind(*t)));
            if !elide_type {
                out.push_str(" : ");
                print_type_into(ctx, *t, out);
            }
        }
        AttrKind::String(s, t) => {
            print_string_bytes(s, out);
            if let Some(t) = t {
                out.push_str(" : ");
                print_type_into(ctx, *t, out);
            }
        }
        AttrKind::Type(t) => print_type_into(ctx, *t, out),
        AttrKind::Array(xs) => {
            out.push('[');
            for (i, &x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                // Array elements are printed with MLIR's "may elide": the
                // type of an `i64` integer or an `f64` float is what the
                // parser assumes, so it is dropped (`[1, 2 : i32]`).
                let elide = match ctx.attr_kind(x) {
                    AttrKind::Integer(_, t) => {
                        *ctx.kind(*t) == TypeKind::Integer(64, Signedness::Signless)
                    }
                    AttrKind::Float(_, t) => *ctx.kind(*t) == TypeKind::F64,
                    _ => false,
                };
                print_attr_ed(ctx, x, out, elide, st);
            }
            out.push(']');
        }
        AttrKind::Dictionary(es) => {
            out.push('{');
            print_dict_entries_ed(ctx, es, out, st);
            out.push('}');
        }
        AttrKind::SymbolRef(r, nested) => {
            print_symbol(ctx.str(*r), out);
            for n in nested {
                out.push_str("::");
                print_symbol(ctx.str(*n), out);
            }
        }
        AttrKind::Dense(elems, t, false)
            if st.elide_large && elems.len() > ELIDE_ELEMENTS_ABOVE =>
        {
            out.push_str("opaque<\"elided_large_const\", \"0xDEADBEEF\">");
            if !elide_type {
                out.push_str(" : ");
                print_type_into(ctx, *t, out);
            }
        }
        AttrKind::Dense(elems, t, splat) => {
            out.push_str("dense<");
            let et = ctx.kind(*t).element_type().expect("dense of shaped type");
            if *splat && ed != Edition::V13 && matches!(ctx.kind(et), TypeKind::Integer(0, _)) {
                dense_zero_width(ctx, elems, *t, et, out);
            } else if *splat {
                if let Some(e) = elems.first() {
                    dense_elem(ctx, e, et, out);
                }
            } else if elems.len() > DENSE_HEX_THRESHOLD {
                dense_raw_hex(ctx, elems, et, ed, out);
            } else {
                let shape: Vec<i64> = match ctx.kind(*t) {
                    TypeKind::Vector { shape, .. } => shape.clone(),
                    TypeKind::Tensor { shape, .. } | TypeKind::MemRef { shape, .. } => {
                        shape.iter().map(|d| d.unwrap_or(0)).collect()
                    }
                    _ => vec![elems.len() as i64],
                };
                dense_nested(ctx, elems, &shape, et, out);
            }
            out.push('>');
            if !elide_type {
                out.push_str(" : ");
                print_type_into(ctx, *t, out);
            }
        }
        AttrKind::Affine(s) | AttrKind::Opaque(s) => out.push_str(s),
    }
}

#[cfg(test)]
mod tests {
    use super::{apfloat_to_string, format_float};
    use mlir_async_ir::TypeKind;

    /// Spellings `mlir-opt-14` and `mlir-opt-15` print.
    #[test]
    fn numbers_print_as_fmt_prints_them() {
        let mut n = 0u32;
        loop {
            let mut s = String::from("%");
            super::push_u32(&mut s, n);
            assert_eq!(s, format!("%{n}"));
            match n.checked_mul(10) {
                Some(m) => n = m + 9,
                None => break,
            }
        }
        for n in [0, 1, 9, 10, 11, 99, 100, 101, 1000, 1009, 65536, u32::MAX] {
            let mut s = String::new();
            super::push_u32(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn floats_print_as_mlir_prints_them() {
        let f32v = |x: f32| format_float(f64::from(x), &TypeKind::F32);
        assert_eq!(f32v(0.9), "0.899999976");
        assert_eq!(f32v(-0.7), "-0.699999988");
        assert_eq!(f32v(3.1), "3.100000e+00");
        assert_eq!(f32v(0.1), "1.000000e-01");
        assert_eq!(f32v(1.0 / 3.0), "0.333333343");
        assert_eq!(f32v(1e-31), "9.99999979E-32");
        assert_eq!(f32v(1e31), "1.000000e+31");
        assert_eq!(f32v(f32::INFINITY), "0x7F800000");
        assert_eq!(f32v(-0.0), "-0.000000e+00");
        let f64v = |x: f64| format_float(x, &TypeKind::F64);
        assert_eq!(f64v(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(f64v(0.5), "5.000000e-01");
    }

    /// Bit patterns as LLVM's APFloat lays them out (f80 keeps its
    /// integer bit), and back.
    #[test]
    fn float_bits_per_type() {
        use super::{float_from_bits, float_to_bits, round_float};
        assert_eq!(round_float(&TypeKind::F16, 1.0e5), f64::INFINITY);
        assert_eq!(round_float(&TypeKind::F16, 65519.0), 65504.0);
        assert_eq!(round_float(&TypeKind::BF16, -1.0e39), f64::NEG_INFINITY);
        assert_eq!(float_to_bits(&TypeKind::F16, f64::INFINITY), 0x7C00);
        assert_eq!(float_to_bits(&TypeKind::F16, 2f64.powi(-24)), 0x0001);
        assert_eq!(float_to_bits(&TypeKind::BF16, -2.0), 0xC000);
        assert_eq!(
            float_to_bits(&TypeKind::F80, 1.0),
            0x3FFF_8000_0000_0000_0000
        );
        assert_eq!(
            float_to_bits(&TypeKind::F128, f64::INFINITY),
            0x7FFF_0000_0000_0000_0000_0000_0000_0000
        );
        for (k, b) in [
            (TypeKind::F16, 0x7E01u128),
            (TypeKind::F16, 0x8001),
            (TypeKind::BF16, 0x7FC1),
            (TypeKind::F32, 0x7F80_0001),
            (TypeKind::F80, 0xC000_C000_0000_0000_0000),
            (TypeKind::F128, 0x3FFE_8000_0000_0000_0000_0000_0000_0000),
        ] {
            assert_eq!(float_to_bits(&k, float_from_bits(&k, b)), b, "{k:?} {b:#x}");
        }
    }

    /// The 6-digit text truncates the exact expansion before rounding.
    #[test]
    fn six_digits_truncate_then_round() {
        let six = |x: f32| apfloat_to_string(f64::from(x), &TypeKind::F32, 6, 0, false);
        assert_eq!(six(0.9), "8.999990e-01");
        assert_eq!(six(3.1), "3.100000e+00");
        let natural = |x: f32| apfloat_to_string(f64::from(x), &TypeKind::F32, 0, 3, true);
        assert_eq!(natural(7.0e-4 + 3.3e-11), "7.00000033E-4");
    }
}
