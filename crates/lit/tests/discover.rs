//! Test discovery visits each real directory once: a symlink back up the
//! tree must not repeat its tests (nor recurse until the path is too long).

use mlir_async_lit::discover;
use std::path::PathBuf;

#[test]
fn symlink_loops_and_aliases_are_walked_once() {
    let root = std::env::temp_dir().join(format!("lit-discover-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("a.mlir"), "// RUN: true\n").unwrap();
    std::fs::write(root.join("sub/b.mlir"), "// RUN: true\n").unwrap();
    // A loop to the root, and a second name for `sub`.
    std::os::unix::fs::symlink("..", root.join("sub/loop")).unwrap();
    std::os::unix::fs::symlink("sub", root.join("alias")).unwrap();
    let found = discover(std::slice::from_ref(&root), &["mlir".to_string()]);
    let mut names: Vec<PathBuf> = found
        .iter()
        .map(|p| p.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    names.sort();
    let _ = std::fs::remove_dir_all(&root);
    // `alias` sorts before `sub`, so `sub`'s test is found through it.
    assert_eq!(
        names,
        vec![PathBuf::from("a.mlir"), PathBuf::from("alias/b.mlir")]
    );
}
