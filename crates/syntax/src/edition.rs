//! The three generations of MLIR's textual syntax. The IR has one op per
//! concept, named as LLVM 15 names it; everything that differs between
//! generations in spelling lives here.

/// A syntax generation, named after the LLVM release that printed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Edition {
    /// The `std` era: `constant`, `addf`, `br`, `func @f`.
    V13,
    /// `arith.*`, but `func`, `br`, `call`, `return` still from `std`.
    V14,
    /// `func.func`, `cf.br`, `arith.*`.
    V15,
}

impl Edition {
    pub fn parse(s: &str) -> Option<Edition> {
        match s {
            "13" => Some(Edition::V13),
            "14" => Some(Edition::V14),
            "15" => Some(Edition::V15),
            _ => None,
        }
    }
}

/// `(canonical name, 13 custom, 14 custom, 13/14 generic)`: ops whose
/// spelling changed. Ops not listed print their canonical name everywhere.
const RENAMES: &[(&str, &str, &str, &str)] = &[
    ("func.func", "func", "func", "builtin.func"),
    ("func.call", "call", "call", "std.call"),
    (
        "func.call_indirect",
        "call_indirect",
        "call_indirect",
        "std.call_indirect",
    ),
    ("func.return", "return", "return", "std.return"),
    ("func.constant", "constant", "constant", "std.constant"),
    ("cf.br", "br", "br", "std.br"),
    ("cf.cond_br", "cond_br", "cond_br", "std.cond_br"),
    ("cf.assert", "assert", "assert", "std.assert"),
    ("cf.switch", "switch", "switch", "std.switch"),
    // `select` was a `std` op until 15 moved it to `arith`.
    ("arith.select", "select", "select", "std.select"),
];

/// `std` ops that no later generation has under a name implemented here
/// (14 moved the float ones to `math`, 15 split `splat` into
/// `vector.splat` and `tensor.splat`), with the last generation that has
/// them: stored as `std.<name>`, printed without the prefix as every `std`
/// op.
const STD_ONLY: &[(&str, Edition)] = &[
    ("absf", Edition::V13),
    ("ceilf", Edition::V13),
    ("floorf", Edition::V13),
    ("copysign", Edition::V13),
    ("fmaf", Edition::V13),
    ("rank", Edition::V13),
    ("splat", Edition::V14),
];

/// `(canonical name, 13 custom, 13 generic)`: `memref` ops that were
/// `std` ops in 13 (14 moved them). 13 prints `generic_atomic_rmw` with its
/// prefix even in custom form.
const STD_13: &[(&str, &str, &str)] = &[
    ("memref.atomic_rmw", "atomic_rmw", "std.atomic_rmw"),
    (
        "memref.generic_atomic_rmw",
        "std.generic_atomic_rmw",
        "std.generic_atomic_rmw",
    ),
    ("memref.atomic_yield", "atomic_yield", "std.atomic_yield"),
];

/// `arith` ops that were unprefixed `std` ops in 13: `(name after
/// "arith.", 13 spelling)`; several were renamed when they moved (13's
/// `divi_signed` is `arith.divsi`, `and` is `arith.andi`).
const ARITH_13: &[(&str, &str)] = &[
    ("constant", "constant"),
    ("addf", "addf"),
    ("subf", "subf"),
    ("mulf", "mulf"),
    ("divf", "divf"),
    ("remf", "remf"),
    ("negf", "negf"),
    ("addi", "addi"),
    ("subi", "subi"),
    ("muli", "muli"),
    ("divsi", "divi_signed"),
    ("divui", "divi_unsigned"),
    ("remsi", "remi_signed"),
    ("remui", "remi_unsigned"),
    ("andi", "and"),
    ("ori", "or"),
    ("xori", "xor"),
    ("cmpi", "cmpi"),
    ("cmpf", "cmpf"),
    ("select", "select"),
    ("index_cast", "index_cast"),
    ("sitofp", "sitofp"),
    ("uitofp", "uitofp"),
    ("fptosi", "fptosi"),
    ("fptoui", "fptoui"),
    ("extf", "fpext"),
    ("truncf", "fptrunc"),
    ("extsi", "sexti"),
    ("extui", "zexti"),
    ("trunci", "trunci"),
    ("shli", "shift_left"),
    ("shrsi", "shift_right_signed"),
    ("shrui", "shift_right_unsigned"),
    ("maxf", "maxf"),
    ("minf", "minf"),
    ("ceildivsi", "ceildivi_signed"),
    ("floordivsi", "floordivi_signed"),
];

/// The 13 spelling of `arith.<rest>`, if it was a `std` op then.
fn arith_13_spelling(rest: &str) -> Option<&'static str> {
    ARITH_13.iter().find(|p| p.0 == rest).map(|p| p.1)
}

/// The `arith` name (after `arith.`) of a 13 spelling.
fn arith_13_name(spelled: &str) -> Option<&'static str> {
    ARITH_13.iter().find(|p| p.1 == spelled).map(|p| p.0)
}

/// The spelling of `name` in the custom form of `ed`.
/// `in_func_body`: the op sits directly in a `func.func` body, where the
/// default dialect of 15 is `func`.
pub fn custom_name(name: &str, ed: Edition, in_func_body: bool) -> &str {
    // Builtin ops print without their dialect prefix in every generation.
    // (The unrealized cast kept its prefix from LLVM 14 on.)
    if let Some(rest) = name.strip_prefix("builtin.") {
        if rest != "func" && (rest != "unrealized_conversion_cast" || ed == Edition::V13) {
            return rest;
        }
    }
    if ed == Edition::V15 && in_func_body {
        // Inside `func.func` the default dialect is `func`: a function
        // nested there prints as `func @inner` too.
        if let Some(rest) = name.strip_prefix("func.") {
            return rest;
        }
    }
    if ed != Edition::V15 {
        if let Some(rest) = name.strip_prefix("std.") {
            return rest;
        }
        if let Some(r) = RENAMES.iter().find(|r| r.0 == name) {
            return if ed == Edition::V13 { r.1 } else { r.2 };
        }
        if ed == Edition::V13 {
            if let Some(rest) = name.strip_prefix("arith.") {
                if let Some(n) = arith_13_spelling(rest) {
                    return n;
                }
            }
            if let Some(r) = STD_13.iter().find(|r| r.0 == name) {
                return r.1;
            }
        }
    }
    name
}

/// The spelling of `name` in the generic form of `ed`.
pub fn generic_name(name: &str, ed: Edition) -> String {
    // 13's builtin module and function had no dialect prefix yet.
    if ed == Edition::V13 {
        match name {
            "builtin.module" => return "module".to_string(),
            "func.func" => return "func".to_string(),
            _ => {}
        }
        // 13's builtin dialect had no prefix.
        if let Some(rest) = name.strip_prefix("builtin.") {
            return rest.to_string();
        }
    }
    if ed != Edition::V15 {
        if let Some(r) = RENAMES.iter().find(|r| r.0 == name) {
            return r.3.to_string();
        }
        if ed == Edition::V13 {
            if let Some(rest) = name.strip_prefix("arith.") {
                if let Some(n) = arith_13_spelling(rest) {
                    return format!("std.{n}");
                }
            }
            if let Some(r) = STD_13.iter().find(|r| r.0 == name) {
                return r.2.to_string();
            }
        }
    }
    name.to_string()
}

/// Maps any generation's spelling to the canonical op name, and says which
/// generation the spelling betrays (`None`: the same in all).
pub fn canonical_name(spelled: &str) -> (String, Option<Edition>) {
    let (c, e) = canonical_name_cow(spelled);
    (c.into_owned(), e)
}

/// [`canonical_name`] without allocating for names that need no change
/// (nearly all of them): the parser asks once per op.
pub fn canonical_name_cow(spelled: &str) -> (std::borrow::Cow<'_, str>, Option<Edition>) {
    use std::borrow::Cow;
    if spelled == "module" {
        return (Cow::Owned(format!("builtin.{spelled}")), None);
    }
    if spelled == "unrealized_conversion_cast" {
        return (Cow::Owned(format!("builtin.{spelled}")), Some(Edition::V13));
    }
    for r in RENAMES {
        if spelled == r.1 || spelled == r.2 {
            // `constant` alone is `arith.constant` in 13 (resolved by the
            // dialect from its operand, see `dialects`), `func.constant` in 14.
            if spelled == "constant" {
                return (Cow::Borrowed("constant"), None);
            }
            return (Cow::Borrowed(r.0), None);
        }
        if spelled == r.3 {
            return (Cow::Borrowed(r.0), None);
        }
        if spelled == r.0 {
            return (Cow::Borrowed(r.0), Some(Edition::V15));
        }
    }
    // With or without the `std.` prefix.
    for r in STD_13 {
        if spelled == r.1 || spelled == r.2 || r.2.strip_prefix("std.") == Some(spelled) {
            return (Cow::Borrowed(r.0), Some(Edition::V13));
        }
    }
    if let Some(n) = arith_13_name(spelled) {
        return (Cow::Owned(format!("arith.{n}")), Some(Edition::V13));
    }
    let bare = spelled.strip_prefix("std.").unwrap_or(spelled);
    if let Some(&(n, last)) = STD_ONLY.iter().find(|o| o.0 == bare) {
        let hint = (last == Edition::V13).then_some(Edition::V13);
        return (Cow::Owned(format!("std.{n}")), hint);
    }
    if let Some(rest) = spelled.strip_prefix("std.") {
        if let Some(n) = arith_13_name(rest) {
            return (Cow::Owned(format!("arith.{n}")), Some(Edition::V13));
        }
    }
    if spelled.starts_with("arith.") {
        return (Cow::Borrowed(spelled), Some(Edition::V14));
    }
    (Cow::Borrowed(spelled), None)
}

/// The `passthrough` attribute value that marks a coroutine for LLVM.
pub fn coroutine_passthrough(ed: Edition) -> &'static str {
    match ed {
        Edition::V15 => "[\"presplitcoroutine\"]",
        _ => "[[\"coroutine.presplit\", \"0\"]]",
    }
}

/// Does `async.runtime.store/load` print the full `!async.value<T>` type?
pub fn runtime_value_type_in_full(ed: Edition) -> bool {
    ed == Edition::V13
}

/// Joins the outputs of `-split-input-file` chunks (`None`: the chunk
/// failed) the way that generation's mlir-opt does.
pub fn join_split_outputs(chunks: &[Option<String>], ed: Edition) -> String {
    let mut out = String::new();
    for (i, c) in chunks.iter().enumerate() {
        if ed == Edition::V13 {
            // 13 prints the chunks one after the other, no separator.
            if let Some(c) = c {
                out.push_str(c);
                out.push('\n');
            }
        } else if ed == Edition::V15 {
            if i > 0 {
                out.push_str("\n// -----\n");
            }
            if let Some(c) = c {
                out.push_str(c);
                out.push('\n');
            }
        } else {
            if let Some(c) = c {
                out.push_str(c);
                out.push('\n');
            }
            out.push_str("// -----\n");
        }
    }
    out
}
