//! The annotated input dump (`-dump-input`), in LLVM 14's layout: each input
//! line is followed by marker lines labelled `check:L`, `next:L'N`, ...

use crate::check::{Diag, MatchType};
use crate::sm::{Loc, SourceMgr};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Filter {
    Error,
    Annotation,
    AnnotationFull,
    All,
}

struct Marker {
    lead: u8,
    note: String,
    filters_as_error: bool,
}

fn marker(mt: MatchType) -> Marker {
    let (lead, note, err) = match mt {
        MatchType::FoundAndExpected => (b'^', "", false),
        MatchType::FoundButExcluded => (b'!', "error: no match expected", true),
        MatchType::FoundButWrongLine => (b'!', "error: match on wrong line", true),
        MatchType::FoundButDiscarded => (b'!', "discard: overlaps earlier match", false),
        MatchType::FoundErrorNote => (b'!', "error: unknown error after match", true),
        MatchType::NoneAndExcluded => (b'X', "", false),
        MatchType::NoneButExpected => (b'X', "error: no match found", true),
        MatchType::NoneForInvalidPattern => (b'X', "error: match failed for invalid pattern", true),
        MatchType::Fuzzy => (b'?', "possible intended match", true),
    };
    Marker {
        lead,
        note: note.to_string(),
        filters_as_error: err,
    }
}

struct Annotation {
    diag_index: usize,
    label: String,
    first_line: bool,
    line: usize,
    start_col: usize,
    end_col: usize,
    marker: Marker,
}

/// Writes the dump of `sm.bufs[input_buf]` with `diags` to `out`.
#[allow(clippy::too_many_arguments)]
pub fn dump(
    out: &mut Vec<u8>,
    sm: &SourceMgr,
    input_buf: usize,
    check_buf: usize,
    imp_range: (usize, usize),
    diags: &[Diag],
    filter: Filter,
    context: usize,
) {
    let mut anns: Vec<Annotation> = Vec::new();
    let mut count_per: std::collections::HashMap<Loc, usize> = Default::default();
    for d in diags {
        *count_per.entry(d.check_loc).or_default() += 1;
    }
    let mut index_per: std::collections::HashMap<Loc, usize> = Default::default();
    let mut label_width = 0;
    for (idx, d) in diags.iter().enumerate() {
        let mut label = format!("{}:", d.check_ty.abbreviation());
        if d.check_loc.buf == check_buf {
            label.push_str(&sm.line_col(d.check_loc).0.to_string());
        } else if imp_range.0 <= d.check_loc.buf && d.check_loc.buf < imp_range.1 {
            label.push_str(&format!("imp{}", d.check_loc.buf - imp_range.0 + 1));
        }
        if count_per[&d.check_loc] > 1 {
            let n = index_per.entry(d.check_loc).or_default();
            label.push_str(&format!("'{n}"));
            *n += 1;
        }
        label_width = label_width.max(label.len());
        let mut m = marker(d.match_ty);
        let (sl, sc) = sm.line_col(Loc {
            buf: input_buf,
            off: d.range.0,
        });
        let (el, ec) = sm.line_col(Loc {
            buf: input_buf,
            off: d.range.1,
        });
        if !d.note.is_empty() {
            m.note = d.note.clone();
            if sl == el && sc == ec {
                m.lead = b' ';
            }
        }
        if d.match_ty == MatchType::FoundErrorNote {
            m.note = format!("error: {}", m.note);
        }
        if sl == el {
            anns.push(Annotation {
                diag_index: idx,
                label,
                first_line: true,
                line: sl,
                start_col: sc,
                end_col: (sc + 1).max(ec),
                marker: m,
            });
        } else {
            let lead_err = m.filters_as_error;
            anns.push(Annotation {
                diag_index: idx,
                label: label.clone(),
                first_line: true,
                line: sl,
                start_col: sc,
                end_col: usize::MAX,
                marker: m,
            });
            for l in sl + 1..=el {
                if ec == 1 && l == el {
                    break;
                }
                anns.push(Annotation {
                    diag_index: idx,
                    label: label.clone(),
                    first_line: false,
                    line: l,
                    start_col: 1,
                    end_col: if l != el { usize::MAX } else { ec },
                    marker: Marker {
                        lead: b'~',
                        note: String::new(),
                        filters_as_error: lead_err,
                    },
                });
            }
        }
    }
    anns.sort_by_key(|a| (a.line, a.diag_index));

    out.extend_from_slice(b"Input was:\n<<<<<<\n");
    let text = &sm.bufs[input_buf].text;
    let mut line_count = text.iter().filter(|&&c| c == b'\n').count();
    if text.last() != Some(&b'\n') {
        line_count += 1;
    }
    let digits = line_count.max(1).to_string().len();
    let width = label_width.max(digits) + 3;

    let mut p = 0usize;
    let mut ai = 0usize;
    let mut prev_in_filter = 0usize;
    let mut next_in_filter = 0usize;
    let mut elided: Vec<u8> = Vec::new();
    let mut line = 1usize;
    while p < text.len() || ai < anns.len() {
        if next_in_filter < line {
            next_in_filter = find_in_filter(filter, line, &anns[ai..]);
        }
        if next_in_filter == line {
            prev_in_filter = line;
        }
        let elide = (prev_in_filter == 0 || prev_in_filter + context < line)
            && (next_in_filter == usize::MAX || line + context < next_in_filter);
        let mut lo = Vec::new();
        if !elide {
            flush_elided(out, &mut elided, width);
        }
        lo.extend_from_slice(format!("{:>width$}: ", line).as_bytes());
        let line_start = p;
        while p < text.len() {
            let c = text[p];
            p += 1;
            if c == b'\n' {
                lo.push(b' ');
                break;
            }
            lo.push(c);
        }
        lo.push(b'\n');
        let line_width = p - line_start;
        while ai < anns.len() && anns[ai].line == line {
            let a = &anns[ai];
            lo.extend_from_slice(format!("{:<width$}  ", a.label).as_bytes());
            let mut col = 1;
            while col < a.start_col {
                lo.push(b' ');
                col += 1;
            }
            lo.push(a.marker.lead);
            col += 1;
            while col < a.end_col && col <= line_width {
                lo.push(b'~');
                col += 1;
            }
            if !a.marker.note.is_empty() {
                while col <= line_width {
                    lo.push(b' ');
                    col += 1;
                }
                lo.push(b' ');
                lo.extend_from_slice(a.marker.note.as_bytes());
            }
            lo.push(b'\n');
            ai += 1;
        }
        if elide {
            elided.extend_from_slice(&lo);
        } else {
            out.extend_from_slice(&lo);
        }
        line += 1;
    }
    flush_elided(out, &mut elided, width);
    out.extend_from_slice(b">>>>>>\n");
}

fn find_in_filter(filter: Filter, line: usize, anns: &[Annotation]) -> usize {
    if filter == Filter::All {
        return line;
    }
    for a in anns {
        match filter {
            Filter::AnnotationFull => return a.line,
            Filter::Annotation if a.first_line => return a.line,
            Filter::Error if a.first_line && a.marker.filters_as_error => return a.line,
            _ => {}
        }
    }
    usize::MAX
}

fn flush_elided(out: &mut Vec<u8>, elided: &mut Vec<u8>, width: usize) {
    if elided.is_empty() {
        return;
    }
    if 3 < elided.iter().filter(|&&c| c == b'\n').count() {
        for _ in 0..3 {
            out.extend_from_slice(format!("{:>width$}\n", ".").as_bytes());
        }
    } else {
        out.extend_from_slice(elided);
    }
    elided.clear();
}
