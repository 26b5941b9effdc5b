//! `cg2slang review` and `check --accept`, with the site loaded in a real browser.
//!
//! The review of the corpus (plus `corpus/review/`: hostile markup in Cg comments and a
//! `#pragma parameter` description, a preset whose LUT is missing; and
//! `corpus/bad/undeclared_function.cg`, a shader that does not translate) is opened in headless Chromium; the tests read the DOM after the page's
//! script ran (`--dump-dom`) and take a screenshot. Chromium must be installed (`.ci/run`
//! installs the Debian package `chromium`).

mod support;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{cg2slang, expect};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs headless Chromium on `page` with `args`; returns stdout.
fn chromium(page: &Path, args: &[&str], profile: &Path) -> String {
    let url = format!("file://{}", page.canonicalize().expect("page exists").display());
    let out = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(&url)
        .output()
        .expect("chromium runs (install the Debian package `chromium`)");
    assert!(out.status.success(), "chromium failed on {url}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The DOM of `page` after its scripts ran.
fn load(page: &Path, profile: &Path) -> String {
    let dom = chromium(page, &["--dump-dom"], profile);
    assert!(dom.contains(r#"data-ready="1""#), "the page's script did not run on {}:\n{dom}", page.display());
    dom
}

/// The DOM of `page` opened at `fragment` (`#line=ID`), after its scripts ran.
fn chromium_dom_at(page: &Path, fragment: &str, profile: &Path) -> String {
    let url = format!("file://{}{fragment}", page.canonicalize().expect("page exists").display());
    let out = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed on {url}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn html_of(page: &Path) -> String {
    std::fs::read_to_string(page).expect("page")
}

/// Every value of `attr="..."` in `dom`.
fn attr_values<'a>(dom: &'a str, attr: &str) -> Vec<&'a str> {
    let pat = format!(" {attr}=\"");
    dom.match_indices(&pat)
        .filter_map(|(i, _)| {
            let rest = &dom[i + pat.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

/// The start tag that carries `marker` (an attribute written as in the DOM).
fn tag_with<'a>(dom: &'a str, marker: &str) -> &'a str {
    let at = dom.find(marker).unwrap_or_else(|| panic!("{marker} not in the DOM"));
    let start = dom[..at].rfind('<').unwrap_or(0);
    let end = at + dom[at..].find('>').unwrap_or(0);
    &dom[start..=end]
}

/// Every relative link of `page` points at a file that exists.
fn assert_links_resolve(page: &Path, dom: &str) -> usize {
    let dir = page.parent().expect("page has a directory");
    let mut n = 0;
    for href in attr_values(dom, "href").into_iter().chain(attr_values(dom, "src")) {
        if href.starts_with('#') {
            continue;
        }
        assert!(!href.contains("://"), "{}: a link leaves the site: {href}", page.display());
        let target = dir.join(href.split('#').next().unwrap_or(href));
        assert!(target.is_file(), "{}: {href} does not resolve ({})", page.display(), target.display());
        n += 1;
    }
    n
}

fn assert_no_injected_script(dom: &str) {
    assert!(!dom.contains("data-pwned="), "an injected script ran:\n{dom}");
    assert!(!dom.contains(r#"id="pwned""#), "an injected handler ran:\n{dom}");
    assert!(!dom.contains("<img src=\"x\""), "hostile markup became an element:\n{dom}");
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("readable").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn review_site_of_the_corpus_in_a_browser() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let base = tmp.path().join("base");
    let site = tmp.path().join("site");
    let profile = tmp.path().join("profile");
    expect(&cg2slang(&["migrate", "corpus", "--out", base.to_str().expect("utf-8")], root()), 0);
    // The baseline: one output changed, one missing, one unreadable (a directory).
    let edited = base.join("retroarch/gamma_encode.slang");
    let text = std::fs::read_to_string(&edited).expect("baseline output");
    std::fs::write(&edited, text.replace("#version 450", "#version 450\n// accepted earlier")).expect("edit");
    std::fs::remove_file(base.join("retroarch/sharpen.slang")).expect("remove");
    std::fs::remove_file(base.join("retroarch/bloom.slangp")).expect("remove");
    std::fs::create_dir(base.join("retroarch/bloom.slangp")).expect("mkdir");

    let args = |out: &Path| {
        vec![
            "review".to_owned(),
            "corpus".into(),
            "corpus/review".into(),
            "corpus/bad/undeclared_function.cg".into(),
            "--out".into(),
            out.display().to_string(),
            "--against".into(),
            base.display().to_string(),
        ]
    };
    let run = cg2slang(&args(&site).iter().map(String::as_str).collect::<Vec<_>>(), root());
    // undeclared_function.cg does not translate: errors in the input, exit 1, never a crash.
    expect(&run, 1);
    assert!(run.stdout.contains("baseline files unreadable"), "{}", run.stdout);

    // Index: counts, one row per preset and shader, every link resolves.
    let index = site.join("index.html");
    let dom = load(&index, &profile);
    let rows = dom.matches("<tr data-kind=").count();
    let pages = files_under(&site.join("shaders")).len() + files_under(&site.join("presets")).len();
    assert_eq!(rows, pages, "one row per page");
    assert!(rows > 50, "{rows} rows");
    assert_eq!(assert_links_resolve(&index, &dom), rows + 2, "a link per row, plus the stylesheet and the script");
    assert!(tag_with(&dom, r#"data-name="retroarch/gamma_encode.slang""#).contains(r#"data-baseline="changed""#));
    assert!(tag_with(&dom, r#"data-name="retroarch/sharpen.slang""#).contains(r#"data-baseline="new""#));
    let bloom = tag_with(&dom, r#"data-name="corpus/retroarch/bloom.cgp""#);
    assert!(bloom.contains(r#"data-baseline="unreadable""#), "{bloom}");
    assert!(tag_with(&dom, r#"data-name="undeclared_function.slang""#).contains(r#"data-status="error""#));
    assert!(dom.contains(r#"<span id="shown">"#), "the filter counter is there");

    // Every page: links resolve, the line map's anchors exist, no injected script ran.
    for page in files_under(&site.join("shaders")) {
        let html = std::fs::read_to_string(&page).expect("page");
        assert_links_resolve(&page, &html);
        let ids: HashSet<&str> = attr_values(&html, "id").into_iter().collect();
        let slang_lines = html.matches(r#"<span class="ln" id="s"#).count();
        let mapped = attr_values(&html, "data-o");
        for target in mapped.iter().flat_map(|o| o.split(' ')) {
            assert!(ids.contains(target), "{}: the line map names #{target}, which is missing", page.display());
        }
        if html.contains(r#"<span class="b-same">"#) || html.contains(r#"<span class="b-changed">"#) {
            assert!(
                !mapped.is_empty() && slang_lines > 0,
                "{}: a translated shader with no mapped line",
                page.display()
            );
        }
    }
    for page in files_under(&site.join("presets")) {
        assert_links_resolve(&page, &std::fs::read_to_string(&page).expect("page"));
    }
    let gamma = site.join("shaders/retroarch/gamma_encode.slang.html");
    let gamma_html = std::fs::read_to_string(&gamma).expect("page");
    assert!(gamma_html.contains("Changes against the baseline") && gamma_html.contains("// accepted earlier"));
    assert!(gamma_html.contains("include/colorspace.inc"), "the include is shown beside the .cg");

    // The hostile shader: its markup is text, in the Cg pane, the slang pane and the DOM.
    let hostile = site.join("shaders/hostile_text.slang.html");
    let dom = load(&hostile, &profile);
    assert_no_injected_script(&dom);
    assert!(dom.contains("&lt;/script&gt;&lt;script&gt;document.body.setAttribute('data-pwned','comment')"), "{dom}");
    assert!(dom.matches("&lt;img src=x onerror=document.body.id='pwned'&gt;").count() >= 2, "Cg and slang: {dom}");
    let ids: HashSet<&str> = attr_values(&dom, "id").into_iter().collect();
    let mapped = attr_values(&dom, "data-o");
    let cg = std::fs::read_to_string(root().join("corpus/review/hostile_text.cg")).expect("fixture");
    let ret = cg.lines().position(|l| l.contains("return tex2D")).expect("the return line") + 1;
    assert!(
        mapped.contains(&format!("c0-{ret}").as_str()),
        "a slang line maps to the Cg return (line {ret}): {mapped:?}"
    );
    assert!(mapped.iter().flat_map(|o| o.split(' ')).all(|t| ids.contains(t)));
    assert!(dom.contains(r#"class="ln mapped""#), "the script marked the Cg lines that have slang lines");
    // Selecting the slang line of the return (`#line=ID`) selects the Cg line it came from.
    let hostile_html = html_of(&hostile);
    let slang_id = attr_values(&hostile_html, "id")
        .into_iter()
        .find(|id| tag_with(&hostile_html, &format!(r#"id="{id}""#)).contains(&format!(r#"data-o="c0-{ret}""#)))
        .map(str::to_owned)
        .expect("a slang line of the return");
    let selected = chromium_dom_at(&hostile, &format!("#line={slang_id}"), &profile);
    assert!(tag_with(&selected, &format!(r#"id="c0-{ret}""#)).contains(" sel"), "the Cg line is selected");
    assert!(tag_with(&selected, &format!(r#"id="{slang_id}""#)).contains(" sel"), "the slang line is selected");

    // The preset page: the description in the parameter table, as text, on both sides.
    let preset = site.join("presets/hostile.slangp.html");
    let dom = load(&preset, &profile);
    assert_no_injected_script(&dom);
    assert_eq!(dom.matches("<td>&lt;img src=x onerror=document.body.id='pwned'&gt;</td>").count(), 2, "{dom}");
    assert!(!dom.contains(r#"class="mismatch""#), "Cg and slang declare the same parameter: {dom}");
    assert!(dom.contains("<code>shader0</code>") && dom.contains("<code>hostile_text.cg</code>"), "{dom}");

    // The shader that did not translate: its error under the Cg line of the call.
    let failed = std::fs::read_to_string(site.join("shaders/undeclared_function.slang.html")).expect("page");
    let cg = std::fs::read_to_string(root().join("corpus/bad/undeclared_function.cg")).expect("fixture");
    let line = cg.lines().position(|l| l.contains("saturat(")).expect("the call") + 1;
    let at = failed.find(&format!(r#"id="c0-{line}""#)).expect("the call's line is shown");
    let next_line = failed[at..].find(r#"<span class="ln""#).unwrap_or(failed.len() - at);
    let under = &failed[at..at + next_line];
    assert!(under.contains(r#"<span class="dmsg diag-error">error["#), "the error sits under the call's line: {under}");

    // A screenshot of the index, and of the hostile shader page.
    for (page, name) in [(&index, "index.png"), (&hostile, "shader.png")] {
        let shot = tmp.path().join(name);
        chromium(page, &[&format!("--screenshot={}", shot.display()), "--window-size=1280,900"], &profile);
        let dims = image::image_dimensions(&shot).expect("a PNG screenshot");
        assert_eq!(dims, (1280, 900), "{name}");
        assert!(std::fs::metadata(&shot).expect("file").len() > 20_000, "{name} is more than a blank page");
    }

    // Deterministic: a second review writes the same bytes (timing.txt aside).
    let again = tmp.path().join("again");
    expect(&cg2slang(&args(&again).iter().map(String::as_str).collect::<Vec<_>>(), root()), 1);
    let a = files_under(&site);
    let b = files_under(&again);
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.strip_prefix(&site).ok(), y.strip_prefix(&again).ok());
        if x.ends_with("timing.txt") {
            continue;
        }
        assert!(std::fs::read(x).ok() == std::fs::read(y).ok(), "{} differs between runs", x.display());
    }

    // Nothing is overwritten without --force.
    let run = cg2slang(&args(&site).iter().map(String::as_str).collect::<Vec<_>>(), root());
    expect(&run, 2);
    assert!(run.stderr.contains("already exist"), "{}", run.stderr);
}

#[test]
fn review_with_comparison_shows_images_and_why_a_preset_cannot_be_compared() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let site = tmp.path().join("site");
    let profile = tmp.path().join("profile");
    let run = cg2slang(
        &[
            "review",
            "corpus/review",
            "--out",
            site.to_str().expect("utf-8"),
            "--compare-image",
            "corpus/retroarch/images/testcard_64x48.png",
            "--compare-frames",
            "1",
        ],
        root(),
    );
    expect(&run, 1);
    let index = site.join("index.html");
    let dom = load(&index, &profile);
    assert!(tag_with(&dom, "hostile.cgp\"").contains(r#"data-verdict="pass""#), "{dom}");
    // A LUT file that does not exist: the preset does not translate (RetroArch refuses it).
    let missing = tag_with(&dom, "missing-lut.cgp\"");
    assert!(missing.contains(r#"data-status="error""#), "{missing}");
    // Over the pixel budget: translated, but old and new are not rendered, and the row says why.
    let oversized = tag_with(&dom, "oversized.cgp\"");
    assert!(oversized.contains(r#"data-status="ok""#) && oversized.contains(r#"data-verdict="error""#), "{oversized}");
    assert!(oversized.contains(r#"data-cause="limit: E0809"#), "the cause is the limit: {oversized}");

    for what in ["input", "old", "new", "diff"] {
        let png = site.join(format!("presets/hostile.slangp.{what}.png"));
        let (w, h) = image::image_dimensions(&png).expect("an image beside the page");
        assert!(w >= 64 && h >= 48, "{what}: {w}x{h}");
    }
    // Each pass's output on both sides, as previews (one pass here; none diverges).
    for side in ["old", "new"] {
        let png = site.join(format!("presets/hostile.slangp.pass0.{side}.png"));
        let (w, h) = image::image_dimensions(&png).expect("a pass preview beside the page");
        assert!(w.max(h) <= 192 && w >= 64, "pass 0 {side}: {w}x{h}");
    }
    let page = site.join("presets/hostile.slangp.html");
    let dom = load(&page, &profile);
    assert_links_resolve(&page, &dom);
    assert!(dom.contains(r#"input type="range""#) && dom.contains(r#"class="old""#), "the old/new slider");
    assert!(tag_with(&dom, r#"data-pass="0""#).contains(r#"class="pass""#), "pass 0's previews, not divergent: {dom}");
    let shot = tmp.path().join("preset.png");
    chromium(&page, &[&format!("--screenshot={}", shot.display()), "--window-size=1000,1400"], &profile);
    assert_eq!(image::image_dimensions(&shot).expect("screenshot"), (1000, 1400));

    let dom = load(&site.join("presets/oversized.slangp.html"), &profile);
    assert!(dom.contains("Could not be compared: E0809"), "{dom}");
    let dom = load(&site.join("presets/missing-lut.slangp.html"), &profile);
    assert!(dom.contains("no-such-tint.png cannot be read"), "the page names the missing file: {dom}");
}

#[test]
fn check_accept_writes_only_what_changed() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let base = tmp.path().join("base");
    expect(&cg2slang(&["migrate", "corpus", "--out", base.to_str().expect("utf-8")], root()), 0);
    let changed = base.join("retroarch/gamma_encode.slang");
    let fresh = std::fs::read_to_string(&changed).expect("output");
    std::fs::write(&changed, "stale\n").expect("edit");
    std::fs::remove_file(base.join("retroarch/sharpen.slang")).expect("remove");
    let untouched = base.join("retroarch/bloom.slangp");
    let before = std::fs::metadata(&untouched).and_then(|m| m.modified()).expect("mtime");

    let against = base.to_str().expect("utf-8");
    let run = cg2slang(&["check", "corpus", "--against", against], root());
    expect(&run, 1);
    let run = cg2slang(&["check", "--accept", "corpus", "--against", against], root());
    expect(&run, 0);
    assert!(run.stdout.contains("accepted 2 files (1 changed, 1 new)"), "{}", run.stdout);
    assert!(run.stdout.contains("accepted (changed): ") && run.stdout.contains("gamma_encode.slang"), "{}", run.stdout);
    assert_eq!(std::fs::read_to_string(&changed).expect("accepted"), fresh);
    assert!(base.join("retroarch/sharpen.slang").is_file());
    assert_eq!(
        std::fs::metadata(&untouched).and_then(|m| m.modified()).expect("mtime"),
        before,
        "unchanged files are not rewritten"
    );
    expect(&cg2slang(&["check", "corpus", "--against", against], root()), 0);
}
