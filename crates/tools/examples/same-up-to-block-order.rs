//! `same-up-to-block-order UPSTREAM OURS`: the benchmarks' identity check
//! for the reference-counting passes, whose upstream output puts the
//! blocks it adds in pointer-hash order. Both files are normalized as the
//! differential test normalizes them (`tests/support/normalize.rs`: each
//! region's blocks depth-first from the entry, then printed again) and
//! compared. Prints `yes`, `yes (upstream: N extra drop_ref)` for
//! upstream's known miscompile and nothing else, or `no`; exits 0 only
//! for `yes`.

#[path = "../tests/support/normalize.rs"]
mod normalize;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [up, ours] = &args[..] else {
        eprintln!("usage: same-up-to-block-order UPSTREAM OURS");
        std::process::exit(2);
    };
    let read = |p: &str| match std::fs::read_to_string(p) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{p}: {e}");
            std::process::exit(2);
        }
    };
    let (u, o) = (
        normalize::normalize(&read(up)),
        normalize::normalize(&read(ours)),
    );
    let verdict = match (&u, &o) {
        (Some(u), Some(o)) if u == o => "yes".to_string(),
        (Some(u), Some(o)) => match normalize::only_extra_drops(u, o) {
            Some(n) => format!("yes (upstream: {n} extra drop_ref)"),
            None => "no".to_string(),
        },
        _ => "no (does not parse)".to_string(),
    };
    println!("{verdict}");
    // The process ends here: freeing both modules would only cost time.
    std::mem::forget((u, o));
    if !verdict.starts_with("yes") {
        std::process::exit(1);
    }
}
