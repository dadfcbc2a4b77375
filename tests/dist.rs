//! The release archives as users get them. `scripts/dist.sh --profile dist-check` builds the
//! linux/amd64, linux/arm64 (static musl, with zig) and windows/amd64 (mingw-w64) archives once per
//! test run — the release targets at the cost of a debug build — and these tests open them:
//! `file`/`ldd` say the Linux binaries are static and stripped, the arm64 binary answers `version`
//! and `check -f` under qemu-user exactly as the host build does, the Windows binary's PE header
//! says x86-64 console program and it runs under wine (when Debian's wine is installed), and every
//! archive holds LICENSE, the man pages and the completions. tests/plugin.rs has real krew install the
//! linux/amd64 archive. The toolchains and tools come from scripts/dist-tools.sh (cached).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use tempfile::TempDir;

use crate::plugin::ok;
use crate::support::{demo, path, root};

/// The platforms the tests build (darwin needs a Mac, see scripts/dist.sh).
const PLATFORMS: &str = "linux/amd64,linux/arm64,windows/amd64";

/// The directory holding the archives and `topo.yaml` (built on first use).
pub fn archives() -> &'static Path {
    static DIST: OnceLock<PathBuf> = OnceLock::new();
    DIST.get_or_init(|| {
        let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let out = tmp.join("dist");
        let _ = std::fs::remove_dir_all(&out);
        // The target directory of this test run: the dist targets' builds are cached next to it.
        let target_dir = tmp.parent().expect("CARGO_TARGET_TMPDIR is <target>/tmp");
        let status = Command::new("bash")
            .arg(path("scripts/dist.sh"))
            .args(["--profile", "dist-check", "--platforms", PLATFORMS, "--out"])
            .arg(&out)
            .env("CARGO_TARGET_DIR", target_dir)
            .env("KUBECTL_TOPO", topo_binary())
            .status()
            .expect("bash runs scripts/dist.sh");
        assert!(status.success(), "scripts/dist.sh failed (see its output above)");
        out
    })
}

fn topo_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_kubectl-topo"))
}

/// The archive of `platform` (`linux_amd64`), unpacked into a temporary directory.
pub fn unpacked(platform: &str) -> TempDir {
    let version = env!("CARGO_PKG_VERSION");
    let archive = archives().join(format!("kubectl-topo_v{version}_{platform}.tar.gz"));
    let dir = TempDir::new().unwrap();
    let out = Command::new("tar").arg("-xzf").arg(&archive).arg("-C").arg(dir.path()).output().unwrap();
    ok(&format!("tar -xzf {}", archive.display()), out);
    dir
}

fn run(program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> Output {
    let program = program.as_ref();
    Command::new(program)
        .args(args)
        .current_dir(root())
        .env_remove("KUBECONFIG")
        .env("HOME", "/nonexistent")
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", program.to_string_lossy()))
}

/// The man page files `__man --list` names.
fn man_pages() -> Vec<String> {
    ok("__man --list", run(topo_binary(), &["__man", "--list"])).lines().map(String::from).collect()
}

#[test]
fn every_archive_holds_the_binary_license_man_pages_and_completions() {
    let pages = man_pages();
    assert!(pages.len() >= 9, "one man page per subcommand: {pages:?}");
    for (platform, exe) in [
        ("linux_amd64", "kubectl-topo"),
        ("linux_arm64", "kubectl-topo"),
        ("windows_amd64", "kubectl-topo.exe"),
    ] {
        let dir = unpacked(platform);
        let mut files = vec![exe.to_string(), "LICENSE".into(), "README.md".into()];
        files.extend(pages.iter().map(|p| format!("man/{p}")));
        files
            .extend(["completions/kubectl_complete-topo", "completions/kubectl-topo.bash"].map(String::from));
        for file in files {
            assert!(dir.path().join(&file).is_file(), "{platform}: no {file} in the archive");
        }
    }
    // The manifest dist.sh wrote has the sha256 of every archive it built.
    let manifest = std::fs::read_to_string(archives().join("topo.yaml")).unwrap();
    for platform in ["linux_amd64", "linux_arm64", "windows_amd64"] {
        let version = env!("CARGO_PKG_VERSION");
        let archive = archives().join(format!("kubectl-topo_v{version}_{platform}.tar.gz"));
        let sha = ok("sha256sum", run("sha256sum", &[archive.to_str().unwrap()]));
        let sha = sha.split_whitespace().next().unwrap();
        let entry = format!("    uri: file://{}\n    sha256: \"{sha}\"\n", archive.display());
        assert!(manifest.contains(&entry), "topo.yaml lacks {entry}:\n{manifest}");
    }
}

#[test]
fn linux_binaries_are_static_and_stripped() {
    for (platform, arch) in [("linux_amd64", "x86-64"), ("linux_arm64", "ARM aarch64")] {
        let dir = unpacked(platform);
        let binary = dir.path().join("kubectl-topo");
        let binary = binary.to_str().unwrap();
        let file = ok("file", run("file", &["-b", binary]));
        assert!(file.starts_with("ELF 64-bit LSB"), "{platform}: {file}");
        assert!(file.contains(arch), "{platform} is not {arch}: {file}");
        assert!(
            file.contains("statically linked") || file.contains("static-pie linked"),
            "{platform}: {file}"
        );
        assert!(file.contains(", stripped"), "{platform}: {file}");
        // ldd (glibc's) refuses a binary with no dynamic section.
        let ldd = run("ldd", &[binary]);
        let said = String::from_utf8_lossy(&ldd.stdout).to_string() + &String::from_utf8_lossy(&ldd.stderr);
        assert!(said.contains("not a dynamic executable"), "{platform}: ldd says {said}");
    }
}

#[test]
fn the_amd64_musl_binary_answers_as_the_host_build() {
    let dir = unpacked("linux_amd64");
    let demo = demo().display().to_string();
    let args = ["check", "-A", "-f", &demo];
    let musl = run(dir.path().join("kubectl-topo"), &args);
    let host = run(topo_binary(), &args);
    assert_eq!(musl.status.code(), host.status.code());
    assert_eq!(String::from_utf8_lossy(&musl.stdout), String::from_utf8_lossy(&host.stdout));
}

#[test]
fn the_arm64_binary_runs_under_qemu() {
    let dir = unpacked("linux_arm64");
    let binary = dir.path().join("kubectl-topo").display().to_string();
    let version = ok("qemu version", run("qemu-aarch64-static", &[&binary, "version"]));
    let host = ok("version", run(topo_binary(), &["version"]));
    assert_eq!(version, host);
    assert!(version.contains(env!("CARGO_PKG_VERSION")), "{version}");

    let demo = demo().display().to_string();
    let check = run("qemu-aarch64-static", &[&binary, "check", "-A", "-f", &demo]);
    let host = run(topo_binary(), &["check", "-A", "-f", &demo]);
    assert_eq!(check.status.code(), host.status.code(), "{}", String::from_utf8_lossy(&check.stderr));
    let table = String::from_utf8(check.stdout).unwrap();
    assert_eq!(table, String::from_utf8(host.stdout).unwrap());
    assert!(table.starts_with("NAMESPACE") && table.contains("demo-service"), "{table}");
}

#[test]
fn the_windows_binary_is_a_console_program_for_x86_64() {
    let dir = unpacked("windows_amd64");
    let exe = dir.path().join("kubectl-topo.exe");
    let bytes = std::fs::read(&exe).unwrap();
    assert_eq!(pe_header(&bytes), Ok(PeHeader { machine: 0x8664, pe32_plus: true, subsystem: 3 }));
    let file = ok("file", run("file", &["-b", exe.to_str().unwrap()]));
    assert!(file.starts_with("PE32+ executable (console) x86-64"), "{file}");
    if wine().is_none() {
        eprintln!("wine is not installed: the PE header was checked instead of running the binary");
    }
}

#[test]
fn the_windows_binary_runs_under_wine_when_debian_has_it() {
    let Some(wine) = wine() else {
        let why = "Debian's wine is not installed (scripts/dist-tools.sh tries it once)";
        return crate::support::cannot_run(
            "dist::the_windows_binary_runs_under_wine_when_debian_has_it",
            why,
        );
    };
    let dir = unpacked("windows_amd64");
    // Debian 12's wine 8 has no bcryptprimitives.dll (Rust's std needs its ProcessPrng): a
    // stand-in next to the exe, built with mingw-w64, forwards to RtlGenRandom.
    let dll = dir.path().join("bcryptprimitives.dll");
    let source = path("tests/dist/wine-bcryptprimitives.c");
    let gcc = run(
        "x86_64-w64-mingw32-gcc",
        &["-O2", "-shared", "-o", dll.to_str().unwrap(), source.to_str().unwrap(), "-ladvapi32"],
    );
    ok("x86_64-w64-mingw32-gcc bcryptprimitives.dll", gcc);
    let exe = dir.path().join("kubectl-topo.exe").display().to_string();
    let prefix = crate::support::cache_dir("kubectl-topo-dist").join("wine");
    let demo = demo().display().to_string();
    let zones = Command::new(&wine)
        .args([exe.as_str(), "zones", "-f", &demo])
        .env("WINEPREFIX", &prefix)
        .env("WINEDEBUG", "-all")
        .current_dir(root())
        .output()
        .expect("wine runs");
    let host = run(topo_binary(), &["zones", "-f", &demo]);
    let table = ok("wine kubectl-topo.exe zones", zones).replace("\r\n", "\n");
    assert_eq!(table, String::from_utf8(host.stdout).unwrap());
}

fn wine() -> Option<PathBuf> {
    ["/usr/bin/wine", "/usr/bin/wine64", "/usr/lib/wine/wine64"]
        .map(PathBuf::from)
        .into_iter()
        .find(|p| p.is_file())
}

#[derive(Debug, PartialEq, Eq)]
struct PeHeader {
    machine: u16,
    pe32_plus: bool,
    subsystem: u16,
}

/// The fields of a PE image's headers that say what runs it (Microsoft's "PE Format": the DOS
/// stub's `e_lfanew` at 0x3c, `PE\0\0`, the COFF header, then the optional header).
fn pe_header(bytes: &[u8]) -> Result<PeHeader, String> {
    let u16_at = |at: usize| bytes.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let u32_at = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    if !bytes.starts_with(b"MZ") {
        return Err("no MZ signature".into());
    }
    let pe = u32_at(0x3c).ok_or("no e_lfanew")? as usize;
    if bytes.get(pe..pe + 4) != Some(b"PE\0\0") {
        return Err(format!("no PE signature at {pe:#x}"));
    }
    let machine = u16_at(pe + 4).ok_or("short COFF header")?;
    let optional = pe + 24;
    let magic = u16_at(optional).ok_or("no optional header")?;
    // Subsystem: offset 68 in both PE32 and PE32+ optional headers.
    let subsystem = u16_at(optional + 68).ok_or("short optional header")?;
    Ok(PeHeader { machine, pe32_plus: magic == 0x20b, subsystem })
}

#[test]
fn pe_header_parser_refuses_what_is_not_a_pe_image() {
    assert_eq!(pe_header(b"\x7fELF"), Err("no MZ signature".into()));
    let mut stub = vec![0u8; 0x80];
    stub[..2].copy_from_slice(b"MZ");
    stub[0x3c] = 0x40;
    assert_eq!(pe_header(&stub), Err("no PE signature at 0x40".into()));
}

#[test]
fn man_pages_render_without_warnings() {
    let pages = man_pages();
    for expected in
        ["kubectl-topo.1", "kubectl-topo-check.1", "kubectl-topo-explain.1", "kubectl-topo-simulate.1"]
    {
        assert!(pages.iter().any(|p| p == expected), "no {expected} in {pages:?}");
    }
    let dir = TempDir::new().unwrap();
    for page in &pages {
        let roff = ok(&format!("__man {page}"), run(topo_binary(), &["__man", page]));
        let file = dir.path().join(page);
        std::fs::write(&file, &roff).unwrap();
        let (stem, section) = page.rsplit_once('.').unwrap();
        assert!(roff.contains(&format!(".TH {stem} {section}")), "{page}: {}", &roff[..200.min(roff.len())]);
        // groff with every warning on (-k: UTF-8 input through preconv, as man does): a page it
        // renders silently is well-formed roff.
        let out = run("groff", &["-k", "-man", "-Tutf8", "-ww", "-z", file.to_str().unwrap()]);
        let warnings = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && warnings.is_empty(), "groff on {page}:\n{warnings}");
        // man(1) shows it: the NAME line names the subcommand.
        let shown = Command::new("man")
            .args(["-l", "-P", "cat"])
            .arg(&file)
            .env("MANWIDTH", "100")
            .env("LANG", "C.UTF-8")
            .output()
            .unwrap();
        let shown = ok(&format!("man -l {page}"), shown);
        let words: Vec<&str> = shown.split_whitespace().collect();
        assert!(words.windows(3).any(|w| w == ["NAME", stem, "-"]), "{page} as man shows it:\n{shown}");
    }
    assert_eq!(run(topo_binary(), &["__man", "no-such.1"]).status.code(), Some(2), "unknown page");
}
