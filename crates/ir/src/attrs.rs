//! Attributes, interned in the [`crate::Context`].

use crate::{Symbol, Type};

crate::entity!(
    /// An interned attribute.
    Attribute,
    "attr"
);
crate::entity_ref!(Attribute);

/// A scalar inside `dense<...>`: integers keep their full value, floats
/// their bits in the element type's width.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseElem {
    Int(i128),
    /// The bits of an `f64`; narrower floats are stored widened, exactly.
    Float(u64),
    /// An `f80` or `f128` element no `f64` holds: the type's own bits (see
    /// [`AttrKind::WideFloat`]).
    WideFloat(u128),
    Bool(bool),
}

/// The structure of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKind {
    Unit,
    Bool(bool),
    /// Integer of the given integer or index type.
    Integer(i128, Type),
    /// Integer of a type wider than 128 bits: its two's complement bits
    /// (see [`wide`]).
    WideInteger(Vec<u64>, Type),
    /// Float of the given float type, as the bits of an `f64` (every value
    /// of the narrower formats converts to `f64` exactly).
    Float(u64, Type),
    /// An `f80` or `f128` value no `f64` holds exactly (a hex literal's
    /// subnormals, raw `dense<"0x...">` bytes), as the type's own bits, so
    /// that it prints as upstream prints it. Never made for a value a
    /// double holds (that is a `Float`: one attribute per value), so
    /// folds, which read `Float`s, never see these and leave them alone.
    WideFloat(u128, Type),
    /// Bytes, as MLIR's `StringAttr`: not necessarily UTF-8.
    String(Vec<u8>, Option<Type>),
    Type(Type),
    Array(Vec<Attribute>),
    /// Entries sorted by name, as MLIR keeps them.
    Dictionary(Vec<(Symbol, Attribute)>),
    /// `@root::@nested...`
    SymbolRef(Symbol, Vec<Symbol>),
    /// `dense<...> : type`; a single element is a splat.
    Dense(Vec<DenseElem>, Type, bool),
    /// `affine_map<...>`, `affine_set<...>`: text in canonical spelling.
    Affine(String),
    /// `#dialect.body` or `#dialect<"body">`: kept verbatim.
    Opaque(String),
}

/// Integers wider than 128 bits (`i1024`), as little-endian 64-bit words
/// of their two's complement bits: MLIR's `APInt` has any width, and
/// constants of wide types appear in real programs. Narrower integers
/// stay `AttrKind::Integer`.
pub mod wide {
    /// The magnitude of a decimal or hexadecimal digit string, or `None`
    /// when a byte is not a digit of the radix.
    pub fn parse_magnitude(digits: &[u8], radix: u32) -> Option<Vec<u64>> {
        let mut limbs: Vec<u64> = vec![];
        for &c in digits {
            let d = (c as char).to_digit(radix)? as u64;
            // limbs = limbs * radix + d
            let mut carry = d as u128;
            for l in limbs.iter_mut() {
                let v = *l as u128 * radix as u128 + carry;
                *l = v as u64;
                carry = v >> 64;
            }
            if carry != 0 {
                limbs.push(carry as u64);
            }
        }
        Some(limbs)
    }

    /// Bits needed for the magnitude (0 for zero).
    pub fn bit_len(mag: &[u64]) -> u32 {
        match mag.iter().rposition(|&l| l != 0) {
            Some(i) => 64 * i as u32 + (64 - mag[i].leading_zeros()),
            None => 0,
        }
    }

    /// Is `mag` exactly 2^(bits)? (the magnitude of the most negative
    /// number of a width).
    fn is_power_of_two(mag: &[u64], bits: u32) -> bool {
        bit_len(mag) == bits + 1 && mag.iter().map(|l| l.count_ones()).sum::<u32>() == 1
    }

    /// Does `[-]mag` fit `width` bits read as `signed`, unsigned, or
    /// (`None`, signless) either way, as MLIR checks an integer literal?
    pub fn fits(neg: bool, mag: &[u64], width: u32, signed: Option<bool>) -> bool {
        let bits = bit_len(mag);
        let fits_signed = if neg {
            bits < width || (bits == width && is_power_of_two(mag, width - 1))
        } else {
            bits < width
        };
        match signed {
            Some(true) => fits_signed,
            Some(false) => !neg && bits <= width,
            None => fits_signed || (!neg && bits <= width),
        }
    }

    /// The `width`-bit two's complement words of `[-]mag`.
    pub fn to_bits(neg: bool, mag: &[u64], width: u32) -> Vec<u64> {
        let n = width.div_ceil(64) as usize;
        let mut w: Vec<u64> = (0..n).map(|i| mag.get(i).copied().unwrap_or(0)).collect();
        if neg {
            let mut carry = 1u64;
            for l in w.iter_mut() {
                let (v, c) = (!*l).overflowing_add(carry);
                *l = v;
                carry = c as u64;
            }
        }
        let top = width % 64;
        if top != 0 {
            if let Some(l) = w.last_mut() {
                *l &= (1u64 << top) - 1;
            }
        }
        w
    }

    /// The decimal spelling of `width`-bit words read signed or unsigned,
    /// as `APInt::print`.
    pub fn to_decimal(bits: &[u64], width: u32, signed: bool) -> String {
        let neg = signed && width > 0 && {
            let top = (width - 1) as usize;
            bits.get(top / 64).is_some_and(|l| l >> (top % 64) & 1 == 1)
        };
        let mut mag: Vec<u64> = if neg {
            // Two's complement back to the magnitude.
            let mut m = bits.to_vec();
            let mut carry = 1u64;
            for l in m.iter_mut() {
                let (v, c) = (!*l).overflowing_add(carry);
                *l = v;
                carry = c as u64;
            }
            let top = width % 64;
            if top != 0 {
                if let Some(l) = m.last_mut() {
                    *l &= (1u64 << top) - 1;
                }
            }
            m
        } else {
            bits.to_vec()
        };
        // Nineteen decimal digits at a time.
        const TEN19: u64 = 10_000_000_000_000_000_000;
        let mut groups = vec![];
        while mag.iter().any(|&l| l != 0) {
            let mut rem = 0u128;
            for l in mag.iter_mut().rev() {
                let v = (rem << 64) | *l as u128;
                *l = (v / TEN19 as u128) as u64;
                rem = v % TEN19 as u128;
            }
            groups.push(rem as u64);
        }
        let mut s = String::new();
        if neg {
            s.push('-');
        }
        match groups.split_last() {
            None => s.push('0'),
            Some((first, rest)) => {
                s.push_str(&first.to_string());
                for g in rest.iter().rev() {
                    s.push_str(&format!("{g:019}"));
                }
            }
        }
        s
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn round_trips_through_bits() {
            let cases = [
                ("0", false, 200, "0"),
                ("1", true, 200, "-1"),
                (
                    "123456789012345678901234567890123456789012345678901234567890",
                    false,
                    1024,
                    "123456789012345678901234567890123456789012345678901234567890",
                ),
                (
                    "123456789012345678901234567890123456789012345678901234567890",
                    true,
                    1024,
                    "-123456789012345678901234567890123456789012345678901234567890",
                ),
                // 2^200 - 1 in 200 bits reads signed as -1.
                (
                    "1606938044258990275541962092341162602522202993782792835301375",
                    false,
                    200,
                    "-1",
                ),
            ];
            for (digits, neg, w, want) in cases {
                let mag = parse_magnitude(digits.as_bytes(), 10).expect("digits");
                assert!(fits(neg, &mag, w, None), "{digits}");
                let bits = to_bits(neg, &mag, w);
                assert_eq!(to_decimal(&bits, w, true), want);
            }
        }

        #[test]
        fn range_checks_follow_signedness() {
            // 2^199 fits 200 bits unsigned or signless, not signed; -2^199
            // fits signed and signless.
            let mag = parse_magnitude(b"80000000000000000000000000000000000000000000000000", 16)
                .expect("hex");
            assert_eq!(bit_len(&mag), 200);
            assert!(fits(false, &mag, 200, Some(false)));
            assert!(fits(false, &mag, 200, None));
            assert!(!fits(false, &mag, 200, Some(true)));
            assert!(fits(true, &mag, 200, Some(true)));
            assert!(!fits(true, &mag, 199, None));
            assert_eq!(
                to_decimal(&to_bits(false, &mag, 200), 200, false),
                "803469022129495137770981046170581301261101496891396417650688"
            );
        }
    }
}
