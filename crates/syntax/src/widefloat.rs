//! `f80` and `f128` values at their full precision, for the printer.
//!
//! Float attributes hold an `f64` (every `f16`/`bf16`/`f32`/`f64` value
//! and every `f80`/`f128` value read from a decimal literal, which MLIR
//! reads as a double). The rest of the wide types' values (a hex literal's
//! subnormals, the raw bytes of `dense<"0x...">`) keep their bits
//! (`AttrKind::WideFloat`, `DenseElem::WideFloat`), and this module prints
//! them as MLIR's `printFloatValue` does: `APFloat::toString` with six
//! digits when that text reads back (in the type's own precision, rounded
//! to nearest even, as `APFloat`'s string conversion does) to the same
//! value, else the natural spelling if it has a decimal point, else the
//! bits in hex. Both conversions are exact, on small big integers: slow
//! next to the `f64` path, which is why only these two types come here.

use mlir_async_ir::TypeKind;
use std::cmp::Ordering;

/// A non-negative integer, little-endian 32-bit limbs, no leading zero
/// limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u128(mut x: u128) -> Big {
        let mut v = vec![];
        while x != 0 {
            v.push(x as u32);
            x >>= 32;
        }
        Big(v)
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    /// Bits needed (0 for zero).
    fn bits(&self) -> u32 {
        match self.0.last() {
            Some(&top) => 32 * (self.0.len() as u32 - 1) + (32 - top.leading_zeros()),
            None => 0,
        }
    }
    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for l in self.0.iter_mut() {
            let x = u64::from(*l) * u64::from(m) + carry;
            *l = x as u32;
            carry = x >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }
    fn add_small(&mut self, a: u32) {
        let mut carry = u64::from(a);
        for l in self.0.iter_mut() {
            if carry == 0 {
                break;
            }
            let x = u64::from(*l) + carry;
            *l = x as u32;
            carry = x >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }
    /// `self * 5^n`.
    fn mul_pow5(&mut self, mut n: u32) {
        // 5^13 is the largest power of five below 2^32.
        while n >= 13 {
            self.mul_small(1_220_703_125);
            n -= 13;
        }
        if n > 0 {
            self.mul_small(5u32.pow(n));
        }
    }
    fn pow10(n: u32) -> Big {
        let mut b = Big(vec![1]);
        let mut n = n;
        while n >= 9 {
            b.mul_small(1_000_000_000);
            n -= 9;
        }
        if n > 0 {
            b.mul_small(10u32.pow(n));
        }
        b
    }
    fn shl(&self, n: u32) -> Big {
        if self.is_zero() {
            return Big(vec![]);
        }
        let (words, bits) = ((n / 32) as usize, n % 32);
        let mut v = vec![0u32; words];
        let mut carry = 0u32;
        for &l in &self.0 {
            if bits == 0 {
                v.push(l);
            } else {
                v.push((l << bits) | carry);
                carry = l >> (32 - bits);
            }
        }
        if carry != 0 {
            v.push(carry);
        }
        Big(v)
    }
    fn compare(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }
    /// `self -= o`, for `self >= o`.
    fn sub_assign(&mut self, o: &Big) {
        let mut borrow = 0i64;
        for (i, l) in self.0.iter_mut().enumerate() {
            let x = i64::from(*l) - i64::from(o.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(x < 0);
            *l = x.rem_euclid(1 << 32) as u32;
        }
        self.trim();
    }
    /// The decimal digits (ASCII), "0" for zero.
    fn to_decimal(&self) -> Vec<u8> {
        let mut limbs = self.0.clone();
        let mut groups: Vec<u32> = vec![];
        while !limbs.is_empty() {
            let mut rem = 0u64;
            for l in limbs.iter_mut().rev() {
                let x = (rem << 32) | u64::from(*l);
                *l = (x / 1_000_000_000) as u32;
                rem = x % 1_000_000_000;
            }
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
            groups.push(rem as u32);
        }
        let mut s = match groups.pop() {
            Some(top) => top.to_string(),
            None => return b"0".to_vec(),
        };
        for g in groups.iter().rev() {
            s.push_str(&format!("{g:09}"));
        }
        s.into_bytes()
    }
    /// `(self / d, self % d)`, bit by bit: only used where the quotient
    /// has a few dozen bits (a significand).
    fn div_rem(&self, d: &Big) -> (u128, Big) {
        let mut r = self.clone();
        let mut q = 0u128;
        if self.compare(d) == Ordering::Less {
            return (0, r);
        }
        let top = self.bits() - d.bits();
        for i in (0..=top).rev() {
            let s = d.shl(i);
            if r.compare(&s) != Ordering::Less {
                r.sub_assign(&s);
                // The callers' quotients have at most 115 bits.
                q |= 1u128 << i.min(127);
            }
        }
        (q, r)
    }
}

/// A wide type's layout: significand precision (with the leading bit),
/// smallest normal exponent, largest exponent.
struct Semantics {
    precision: u32,
    emin: i32,
    emax: i32,
    f80: bool,
}

fn semantics(k: &TypeKind) -> Option<Semantics> {
    match k {
        TypeKind::F80 => Some(Semantics {
            precision: 64,
            emin: -16382,
            emax: 16383,
            f80: true,
        }),
        TypeKind::F128 => Some(Semantics {
            precision: 113,
            emin: -16382,
            emax: 16383,
            f80: false,
        }),
        _ => None,
    }
}

/// A decoded value: `sig * 2^exp`, sign apart.
enum Decoded {
    Zero,
    Finite {
        sig: u128,
        exp: i32,
    },
    /// Infinity or NaN: printed as these bits (`APFloat`'s, which differ
    /// from the input's for `f80` unnormals).
    Special(u128),
}

fn decode(bits: u128, s: &Semantics) -> (bool, Decoded) {
    let (neg, exp_field, sig) = if s.f80 {
        (
            (bits >> 79) & 1 == 1,
            ((bits >> 64) & 0x7fff) as i32,
            bits & u128::from(u64::MAX),
        )
    } else {
        (
            (bits >> 127) & 1 == 1,
            ((bits >> 112) & 0x7fff) as i32,
            bits & ((1u128 << 112) - 1),
        )
    };
    if exp_field == 0x7fff {
        return (neg, Decoded::Special(bits));
    }
    // An `f80` "unnormal" (an exponent, but no integer bit) is a NaN to
    // `APFloat`, which keeps the significand under an all-ones exponent.
    if s.f80 && exp_field != 0 && sig >> 63 == 0 {
        return (neg, Decoded::Special(bits | (0x7fff << 64)));
    }
    // `f80` stores its integer bit; `f128` implies it for normal numbers.
    let fraction_bits = s.precision as i32 - 1;
    let (sig, e) = if exp_field == 0 {
        (sig, s.emin)
    } else if s.f80 {
        (sig, exp_field - 16383)
    } else {
        (sig | (1u128 << 112), exp_field - 16383)
    };
    if sig == 0 {
        return (neg, Decoded::Zero);
    }
    (
        neg,
        Decoded::Finite {
            sig,
            exp: e - fraction_bits,
        },
    )
}

/// `sig * 2^exp` with the trailing zero bits of `sig` moved into `exp`.
fn canonical(sig: u128, exp: i32) -> (u128, i32) {
    let tz = sig.trailing_zeros();
    (sig >> tz, exp + tz as i32)
}

/// The exact decimal value of `sig * 2^exp` as `APFloat::toString` forms
/// it: digits and a power of ten (`N * 5^-e * 10^e` for negative `e`).
fn exact_decimal(sig: u128, exp: i32) -> (Vec<u8>, i64) {
    let (n, e) = canonical(sig, exp);
    let mut b = Big::from_u128(n);
    if e >= 0 {
        (b.shl(e as u32).to_decimal(), 0)
    } else {
        b.mul_pow5(e.unsigned_abs());
        (b.to_decimal(), i64::from(e))
    }
}

/// What a decimal text (as the printer makes it: `[-]D[.D][e|E[+-]D]`)
/// reads as in the type, rounded to nearest even: `None` when it does not
/// read or overflows.
fn read_decimal(text: &str, s: &Semantics) -> Option<Decoded> {
    let t = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, e10) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut num = Big(vec![]);
    for c in int.bytes().chain(frac.bytes()) {
        if !c.is_ascii_digit() {
            return None;
        }
        num.mul_small(10);
        num.add_small(u32::from(c - b'0'));
    }
    num.trim();
    if num.is_zero() {
        return Some(Decoded::Zero);
    }
    let e10 = e10 - frac.len() as i64;
    // Far beyond both ends of the types (and of these loops).
    if !(-10_000..=10_000).contains(&e10) {
        return None;
    }
    let (num, den) = if e10 >= 0 {
        let mut n = num;
        let mut k = e10 as u32;
        while k >= 9 {
            n.mul_small(1_000_000_000);
            k -= 9;
        }
        if k > 0 {
            n.mul_small(10u32.pow(k));
        }
        (n, Big(vec![1]))
    } else {
        (num, Big::pow10(e10.unsigned_abs() as u32))
    };
    // The binary exponent of the value: 2^e2 <= num/den < 2^(e2+1).
    let mut e2 = num.bits() as i32 - den.bits() as i32;
    let at = |e: i32| -> Ordering {
        // num vs den * 2^e
        if e >= 0 {
            num.compare(&den.shl(e as u32))
        } else {
            num.shl(e.unsigned_abs()).compare(&den)
        }
    };
    if at(e2) == Ordering::Less {
        e2 -= 1;
    }
    // The weight of the last significand bit at this exponent.
    let u = e2.max(s.emin) - (s.precision as i32 - 1);
    let (n, d) = if u <= 0 {
        (num.shl(u.unsigned_abs()), den)
    } else {
        (num, den.shl(u as u32))
    };
    let (mut q, r) = n.div_rem(&d);
    // Round half to even.
    match r.shl(1).compare(&d) {
        Ordering::Greater => q += 1,
        Ordering::Equal if q & 1 == 1 => q += 1,
        _ => {}
    }
    if q == 0 {
        return Some(Decoded::Zero);
    }
    let top = 128 - q.leading_zeros() as i32;
    if top - 1 + u > s.emax {
        return None;
    }
    Some(Decoded::Finite { sig: q, exp: u })
}

/// MLIR's spelling of the `f80` / `f128` value with the bit pattern
/// `bits` (see the module comment); `None` for other types.
pub fn format_wide_float(bits: u128, k: &TypeKind) -> Option<String> {
    let s = semantics(k)?;
    let hex = || format!("0x{bits:X}");
    let (neg, d) = decode(bits, &s);
    let (sig, exp) = match d {
        Decoded::Special(b) => return Some(format!("0x{b:X}")),
        Decoded::Zero => {
            let z = if neg { -0.0 } else { 0.0 };
            return Some(crate::printer::format_float(z, k));
        }
        Decoded::Finite { sig, exp } => (sig, exp),
    };
    let (digits, e10) = exact_decimal(sig, exp);
    let six = crate::printer::apfloat_digits_to_string(
        neg,
        digits.clone(),
        e10,
        s.precision,
        6,
        0,
        false,
    );
    let same = match read_decimal(&six, &s) {
        Some(Decoded::Finite { sig: s2, exp: e2 }) => canonical(s2, e2) == canonical(sig, exp),
        _ => false,
    };
    if same {
        return Some(six);
    }
    let natural =
        crate::printer::apfloat_digits_to_string(neg, digits, e10, s.precision, 0, 3, true);
    if natural.contains('.') {
        return Some(natural);
    }
    Some(hex())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_integer_steps() {
        let mut b = Big::from_u128(u128::MAX);
        b.mul_small(10);
        assert_eq!(
            String::from_utf8(b.to_decimal()).unwrap(),
            "3402823669209384634633746074317682114550"
        );
        let p = Big::pow10(30);
        let (q, r) = p.div_rem(&Big::from_u128(7));
        assert_eq!(q, 10u128.pow(30) / 7);
        assert_eq!(r, Big::from_u128(10u128.pow(30) % 7));
    }

    #[test]
    fn reads_decimals_at_the_types_precision() {
        let f80 = semantics(&TypeKind::F80).unwrap();
        // 1.5 is exact.
        match read_decimal("1.5", &f80) {
            Some(Decoded::Finite { sig, exp }) => assert_eq!(canonical(sig, exp), (3, -1)),
            _ => panic!("1.5 reads"),
        }
        // Past the largest f80 it overflows.
        assert!(read_decimal("1.2e4933", &f80).is_none());
        assert!(matches!(read_decimal("1e-5000", &f80), Some(Decoded::Zero)));
    }
}
