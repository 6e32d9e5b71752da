//! `linalg.generic`'s custom form and `#map` alias printing, against
//! outputs recorded from mlir-opt-14 for the same inputs (less the empty
//! line the tool adds at the end).

use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::Context;
use mlir_async_syntax::{parse_source, print_op, PrintOptions};

fn round_trip(text: &str, allow_unregistered: bool) -> String {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let parsed = parse_source(&mut ctx, &reg, "t.mlir", text, 0, allow_unregistered)
        .unwrap_or_else(|d| panic!("{}", d.render(Some(text))));
    verify(&ctx, &reg, parsed.module, parsed.edition).expect("valid");
    let opts = PrintOptions {
        edition: parsed.edition,
        generic: false,
        debug_info: false,
    };
    print_op(&ctx, &reg, parsed.module, opts)
}

/// Several distinct maps are numbered `#map0`, `#map1`... in the order the
/// printer meets them (a memref layout in a signature comes first).
#[test]
fn several_maps_are_numbered_in_print_order() {
    let input = r#"#a = affine_map<(d0, d1) -> (d0, d1)>
#b = affine_map<(d0, d1) -> (d1, d0)>
#c = affine_map<(d0) -> (d0 + 1)>
func @f(%m: memref<?x?xf32>, %n: memref<4xf32, #c>) {
  "x.y"() {a = #b, b = [#a, #c], t = affine_map<(d0)[s0] -> (d0 * s0)>} : () -> ()
  return
}
"#;
    let expected = r#"#map0 = affine_map<(d0) -> (d0 + 1)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0)[s0] -> (d0 * s0)>
module {
  func @f(%arg0: memref<?x?xf32>, %arg1: memref<4xf32, #map0>) {
    "x.y"() {a = #map1, b = [#map2, #map0], t = #map3} : () -> ()
    return
  }
}
"#;
    assert_eq!(round_trip(input, true), expected);
}

/// The 14/15 custom form with `ins`, `outs`, `attrs =` and a tensor result.
#[test]
fn linalg_generic_custom_form() {
    let input = r#"#a = affine_map<(d0, d1) -> (d0, d1)>
#b = affine_map<(d0, d1) -> (d1, d0)>
func @g(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [#b, #a], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) attrs = {zz = 1 : i32} {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
"#;
    let expected = r#"#map0 = affine_map<(d0, d1) -> (d1, d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func @g(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x4xf32>) outs(%arg0 : tensor<4x4xf32>) attrs =  {zz = 1 : i32} {
    ^bb0(%arg1: f32, %arg2: f32):
      linalg.yield %arg1 : f32
    } -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
"#;
    let out = round_trip(input, false);
    assert_eq!(out, expected);
    // The printed form parses back to the same text.
    assert_eq!(round_trip(&out, false), expected);
}

/// One map is `#map`, without a number.
#[test]
fn a_single_map_is_unnumbered() {
    let input = "func @f(%m: memref<4xf32, affine_map<(d0) -> (d0 + 2)>>) {\n  return\n}\n";
    let out = round_trip(input, false);
    assert!(
        out.starts_with("#map = affine_map<(d0) -> (d0 + 2)>\nmodule {\n"),
        "{out}"
    );
    assert!(out.contains("memref<4xf32, #map>"), "{out}");
}
