//! Helpers of the GUI tests: the server as a child process, a small HTTP
//! client, the page's event stream, a small JSON reader, and a WebDriver
//! client for headless Chromium.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing text at {}", p.i));
        }
        Ok(v)
    }

    pub fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map_or(&Json::Null, |(_, v)| v),
            _ => &Json::Null,
        }
    }

    pub fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn num(&self) -> Option<f64> {
        match self {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }

    pub fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => &[],
        }
    }

    pub fn strings(&self) -> Vec<String> {
        self.arr()
            .iter()
            .filter_map(|v| v.str().map(str::to_string))
            .collect()
    }

    pub fn is_null(&self) -> bool {
        *self == Json::Null
    }

    /// The value as JSON text (for WebDriver requests).
    pub fn text(&self) -> String {
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => b.to_string(),
            Json::Num(n) => n.to_string(),
            Json::Str(s) => quote(s),
            Json::Arr(a) => format!(
                "[{}]",
                a.iter().map(Json::text).collect::<Vec<_>>().join(",")
            ),
            Json::Obj(f) => format!(
                "{{{}}}",
                f.iter()
                    .map(|(k, v)| format!("{}:{}", quote(k), v.text()))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }
}

pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        let c = *self.s.get(self.i).ok_or("unexpected end")?;
        match c {
            b'{' => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    let Json::Str(k) = self.value()? else {
                        return Err("object key".into());
                    };
                    self.ws();
                    if self.s.get(self.i) != Some(&b':') {
                        return Err("expected :".into());
                    }
                    self.i += 1;
                    let v = self.value()?;
                    fields.push((k, v));
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(fields));
                        }
                        _ => return Err("expected , or }".into()),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err("expected , or ]".into()),
                    }
                }
            }
            b'"' => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let c = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    match c {
                        b'"' => return Ok(Json::Str(out)),
                        b'\\' => {
                            let e = *self.s.get(self.i).ok_or("bad escape")?;
                            self.i += 1;
                            match e {
                                b'n' => out.push('\n'),
                                b't' => out.push('\t'),
                                b'r' => out.push('\r'),
                                b'b' => out.push('\u{8}'),
                                b'f' => out.push('\u{c}'),
                                b'u' => {
                                    let hex = std::str::from_utf8(&self.s[self.i..self.i + 4])
                                        .map_err(|e| e.to_string())?;
                                    let code =
                                        u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                                    self.i += 4;
                                    out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                                }
                                other => out.push(other as char),
                            }
                        }
                        _ => {
                            // Copy the UTF-8 sequence as it is.
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.s.len() && (self.s[end] & 0xC0) == 0x80 {
                                end += 1;
                            }
                            out.push_str(&String::from_utf8_lossy(&self.s[start..end]));
                            self.i = end;
                        }
                    }
                }
            }
            b't' if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                Ok(Json::Bool(true))
            }
            b'f' if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                Ok(Json::Bool(false))
            }
            b'n' if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Ok(Json::Null)
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                std::str::from_utf8(&self.s[start..self.i])
                    .ok()
                    .and_then(|t| t.parse().ok())
                    .map(Json::Num)
                    .ok_or_else(|| format!("bad value at {start}"))
            }
        }
    }
}

/// One HTTP exchange: status and body.
pub fn http(port: u16, method: &str, path: &str, body: &str) -> (u16, String) {
    http_host(port, method, path, body, &format!("127.0.0.1:{port}"))
}

/// One HTTP exchange with a given Host header.
pub fn http_host(port: u16, method: &str, path: &str, body: &str, host: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).expect("write");
    // Read the head, then exactly Content-Length bytes: a WebDriver
    // server keeps the connection open whatever the request says.
    let mut reader = BufReader::new(s);
    let mut head = String::new();
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse::<usize>().ok();
        }
        let end = line == "\r\n";
        head.push_str(&line);
        if end {
            break;
        }
    }
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            let _ = reader.read_exact(&mut body);
        }
        None => {
            let _ = reader.read_to_end(&mut body);
        }
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// Percent-encodes a query value.
pub fn enc(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `tabula gui --port 0` as a child process.
pub struct Server {
    pub child: Child,
    pub port: u16,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["gui", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tabula gui");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the URL line");
        let port = line
            .trim()
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in '{line}'"));
        Server { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Starts a game; returns its session id.
    pub fn new_game(&self, query: &str) -> String {
        let (status, body) = http(self.port, "POST", &format!("/api/new?{query}"), "");
        assert_eq!(status, 200, "new game {query}: {body}");
        Json::parse(&body)
            .unwrap()
            .get("session")
            .str()
            .unwrap()
            .to_string()
    }

    /// Stops the server as Ctrl-C would (SIGTERM) and waits for it.
    pub fn stop(mut self) -> std::process::ExitStatus {
        unsafe_kill(self.child.id(), 15);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not stop");
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `signal` to `pid` through the `kill` program (no unsafe code in
/// the tests).
pub fn unsafe_kill(pid: u32, signal: i32) {
    let _ = Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status();
}

/// The page's event stream, read on a thread: each event's JSON text.
pub struct Events {
    pub rx: Receiver<String>,
    stream: TcpStream,
}

impl Events {
    pub fn open(port: u16, session: &str) -> Events {
        let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        let req = format!("GET /api/events?s={session} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
        s.write_all(req.as_bytes()).expect("write");
        let reader = s.try_clone().expect("clone");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut lines = BufReader::new(reader);
            let mut line = String::new();
            let mut data = String::new();
            loop {
                line.clear();
                match lines.read_line(&mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let l = line.trim_end_matches(['\r', '\n']);
                if let Some(d) = l.strip_prefix("data: ") {
                    data.push_str(d);
                } else if l.is_empty()
                    && !data.is_empty()
                    && tx.send(std::mem::take(&mut data)).is_err()
                {
                    return;
                }
            }
        });
        Events { rx, stream: s }
    }

    /// The next event within `timeout`.
    pub fn next(&self, timeout: Duration) -> Option<String> {
        self.rx.recv_timeout(timeout).ok()
    }

    /// Closes the stream, as a closed page does.
    pub fn close(self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// The processes of engines started by the server with process id
/// `server` (they carry `TABULA_MATCH_ENGINE=<server>-<n>`).
pub fn engine_processes(server: u32) -> Vec<u32> {
    let needle = format!("TABULA_MATCH_ENGINE={server}-");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        // A zombie has an empty environment: it is gone already.
        if env
            .split(|&b| b == 0)
            .any(|v| v.starts_with(needle.as_bytes()))
        {
            found.push(pid);
        }
    }
    found
}

/// A WebDriver session on headless Chromium, or `None` (with a message)
/// when Chromium or its driver is not installed.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: std::path::PathBuf,
}

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const DRIVER: &str = "/usr/bin/chromedriver";

impl Browser {
    pub fn start() -> Option<Browser> {
        if !std::path::Path::new(CHROMIUM).exists() || !std::path::Path::new(DRIVER).exists() {
            eprintln!(
                "SKIPPED: the browser tests need Debian's chromium and chromium-driver \
                 ({CHROMIUM}, {DRIVER}); .ci/run installs them"
            );
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let driver = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            thread::sleep(Duration::from_millis(50));
        }
        let profile =
            std::env::temp_dir().join(format!("tabula-gui-test-{}-{}", std::process::id(), port));
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1400,1000",
            "--disable-crash-reporter",
            "--disable-breakpad",
        ]
        .iter()
        .map(|a| quote(a))
        .chain(std::iter::once(quote(&format!(
            "--user-data-dir={}",
            profile.display()
        ))))
        .collect::<Vec<_>>()
        .join(",");
        let caps = format!(
            r#"{{"capabilities":{{"alwaysMatch":{{"browserName":"chrome","goog:loggingPrefs":{{"browser":"ALL"}},"goog:chromeOptions":{{"binary":{},"args":[{args}]}}}}}}}}"#,
            quote(CHROMIUM)
        );
        let mut b = Browser {
            driver,
            port,
            session: String::new(),
            _profile: profile,
        };
        let v = b.call("POST", "/session", &caps);
        b.session = v
            .get("sessionId")
            .str()
            .unwrap_or_else(|| panic!("no WebDriver session: {v:?}"))
            .to_string();
        // A loaded machine may starve the page for a while.
        b.call(
            "POST",
            &format!("/session/{}/timeouts", b.session),
            r#"{"script":120000,"pageLoad":120000}"#,
        );
        Some(b)
    }

    fn call(&self, method: &str, path: &str, body: &str) -> Json {
        let (status, text) = http(self.port, method, path, body);
        let v = Json::parse(&text).unwrap_or_else(|e| panic!("WebDriver reply {e}: {text}"));
        assert_eq!(status, 200, "WebDriver {method} {path}: {text}");
        v.get("value").clone()
    }

    pub fn goto(&self, url: &str) {
        self.call(
            "POST",
            &format!("/session/{}/url", self.session),
            &format!("{{\"url\":{}}}", quote(url)),
        );
    }

    /// Runs `script` (a function body) in the page and returns its value.
    pub fn js(&self, script: &str) -> Json {
        self.call(
            "POST",
            &format!("/session/{}/execute/sync", self.session),
            &format!("{{\"script\":{},\"args\":[]}}", quote(script)),
        )
    }

    /// Clicks the element `css` selects: the pointer enters it, then a
    /// click, dispatched in the page to the page's own handlers.
    /// (WebDriver's element click, which moves a synthetic pointer, left
    /// this headless Chromium's page unresponsive after some clicks on
    /// the redrawn SVG board.)
    pub fn click(&self, css: &str) {
        let script = format!(
            "const e = document.querySelector({sel});
             if (!e) return false;
             e.scrollIntoView({{block: 'nearest'}});
             for (const t of ['mouseenter', 'mouseover']) e.dispatchEvent(new MouseEvent(t, {{bubbles: t === 'mouseover'}}));
             const again = document.querySelector({sel}) || e;
             again.dispatchEvent(new MouseEvent('click', {{bubbles: true, cancelable: true, view: window}}));
             return true;",
            sel = quote(css)
        );
        self.until_found(&script, css);
    }

    /// Runs `script` (which answers whether it found `css`'s element)
    /// until it does, for up to a second while the page redraws.
    fn until_found(&self, script: &str, css: &str) {
        for _ in 0..20 {
            if self.js(script) == Json::Bool(true) {
                return;
            }
            thread::sleep(Duration::from_millis(50));
        }
        panic!("no element {css}");
    }

    /// Taps the element `css` selects as a finger does: a touch
    /// pointer goes down on it, then the click the tap makes.
    pub fn tap(&self, css: &str) {
        let script = format!(
            "const e = document.querySelector({sel});
             if (!e) return false;
             e.scrollIntoView({{block: 'nearest'}});
             const r = e.getBoundingClientRect();
             const at = {{bubbles: true, cancelable: true, pointerType: 'touch', isPrimary: true,
                          clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}};
             e.dispatchEvent(new PointerEvent('pointerdown', at));
             e.dispatchEvent(new PointerEvent('pointerup', at));
             const again = document.querySelector({sel}) || e;
             again.dispatchEvent(new MouseEvent('click', {{bubbles: true, cancelable: true, view: window}}));
             return true;",
            sel = quote(css)
        );
        self.until_found(&script, css);
    }

    /// A touch screen (a phone) or a mouse: Chromium's touch emulation,
    /// which makes the page's `(pointer: coarse)` true.
    pub fn set_touch(&self, on: bool) {
        self.call(
            "POST",
            &format!("/session/{}/goog/cdp/execute", self.session),
            &format!(
                r#"{{"cmd":"Emulation.setTouchEmulationEnabled","params":{{"enabled":{on},"maxTouchPoints":{}}}}}"#,
                if on { 5 } else { 1 }
            ),
        );
    }

    /// Sets the window's size (headless: the viewport's, less nothing).
    pub fn set_size(&self, width: u32, height: u32) {
        self.call(
            "POST",
            &format!("/session/{}/window/rect", self.session),
            &format!("{{\"width\":{width},\"height\":{height}}}"),
        );
    }

    /// The browser console's messages since the last call, as
    /// `(level, message)`.
    pub fn console(&self) -> Vec<(String, String)> {
        let v = self.call(
            "POST",
            &format!("/session/{}/se/log", self.session),
            r#"{"type":"browser"}"#,
        );
        v.arr()
            .iter()
            .map(|e| {
                (
                    e.get("level").str().unwrap_or("").to_string(),
                    e.get("message").str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }

    /// Gives the file input `css` the file at `path`, as a person
    /// choosing it does.
    pub fn choose_file(&self, css: &str, path: &std::path::Path) {
        let found = self.call(
            "POST",
            &format!("/session/{}/element", self.session),
            &format!("{{\"using\":\"css selector\",\"value\":{}}}", quote(css)),
        );
        let id = match &found {
            Json::Obj(fields) => fields
                .first()
                .and_then(|(_, v)| v.str())
                .unwrap_or_else(|| panic!("no element {css}"))
                .to_string(),
            _ => panic!("no element {css}"),
        };
        self.call(
            "POST",
            &format!("/session/{}/element/{id}/value", self.session),
            &format!("{{\"text\":{}}}", quote(&path.display().to_string())),
        );
    }

    /// The page as a PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", &format!("/session/{}/screenshot", self.session), "");
        base64_decode(v.str().expect("base64 screenshot"))
    }

    /// Waits until `condition` (a JavaScript expression) is true.
    pub fn wait_for(&self, condition: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            // A page still loading (after a navigation or a reload) has
            // no `window.tabula` yet: the condition is not met, not wrong.
            let script = format!("try {{ return !!({condition}); }} catch (e) {{ return false; }}");
            if self.js(&script) == Json::Bool(true) {
                return true;
            }
            thread::sleep(Duration::from_millis(30));
        }
        false
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                "",
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(c);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// A small deterministic generator for the tests' choices.
pub struct Pick(pub u64);

impl Pick {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

#[test]
fn json_reader_reads_what_the_server_writes() {
    let v = Json::parse(r#"{"a":[1,"x\u003cy",null,true],"b":{"c":-2.5e1}}"#).unwrap();
    assert_eq!(v.get("a").arr()[1].str(), Some("x<y"));
    assert_eq!(v.get("b").get("c").num(), Some(-25.0));
    assert!(v.get("zz").is_null());
}
