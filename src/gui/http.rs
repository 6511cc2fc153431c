//! A small HTTP/1.1 server on `std::net`: one request per connection
//! (`Connection: close`), reads bounded in size and in time, writes
//! bounded in time, and server-sent events for the
//! page's stream. Enough for one page talking to its own server; no TLS,
//! no keep-alive, no chunked uploads.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The longest request head (request line and headers) accepted.
const MAX_HEAD: usize = 16 * 1024;

/// The largest request body accepted (a match record to replay).
pub const MAX_BODY: usize = 4 * 1024 * 1024;

/// How long a client may take to send its request head (request line and
/// headers), in all: a client that trickles it is cut off.
const HEAD_DEADLINE: Duration = Duration::from_secs(10);

/// How long a client may take to send its whole request, body included.
const REQUEST_DEADLINE: Duration = Duration::from_secs(60);

/// How long a reply may wait for the client to read it.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// The headers a request may carry at most once: two of them would let
/// two readers of the request disagree on it (request smuggling, a
/// second Host past the check).
const SINGLE_HEADERS: [&str; 3] = ["host", "content-length", "transfer-encoding"];

/// Reads from a stream until a deadline, whatever the pace of the peer:
/// each read waits at most for the time left.
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the request took too long",
            ));
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

/// One request.
#[derive(Debug, Default)]
pub struct HttpRequest {
    /// `GET`, `POST`...
    pub method: String,
    /// The path without the query.
    pub path: String,
    /// The query's parameters, decoded, in order.
    pub query: Vec<(String, String)>,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The first value of query parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request could not be read; answered with `400` (or nothing,
/// when the connection is gone).
#[derive(Debug)]
pub struct BadRequest(pub String);

/// Decodes `%XX` escapes and `+` (as a space) of a query component.
/// Invalid escapes are kept as they are; invalid UTF-8 is replaced.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Splits `a=1&b=2` into decoded pairs.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (percent_decode(k), percent_decode(v)),
            None => (percent_decode(p), String::new()),
        })
        .collect()
}

/// Reads one request from `stream`.
pub fn read_request(stream: &TcpStream) -> Result<HttpRequest, BadRequest> {
    let bad = |m: &str| BadRequest(m.to_string());
    let started = Instant::now();
    let mut reader = BufReader::new(
        Deadline {
            stream,
            until: started + HEAD_DEADLINE,
        }
        .take((MAX_HEAD + MAX_BODY) as u64),
    );
    let mut head_bytes = 0;
    let mut line = String::new();
    let mut next_line = |reader: &mut BufReader<_>, line: &mut String| -> Result<(), BadRequest> {
        line.clear();
        let n = reader
            .by_ref()
            .take((MAX_HEAD - head_bytes.min(MAX_HEAD)) as u64)
            .read_line(line)
            .map_err(|e| BadRequest(e.to_string()))?;
        head_bytes += n;
        if n == 0 || !line.ends_with('\n') {
            return Err(bad("incomplete or overlong request head"));
        }
        Ok(())
    };
    next_line(&mut reader, &mut line)?;
    let mut words = line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (words.next(), words.next(), words.next())
    else {
        return Err(bad("malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(bad("HTTP/1.x only"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut request = HttpRequest {
        method: method.to_string(),
        path: percent_decode(path),
        query: parse_query(query),
        ..HttpRequest::default()
    };
    loop {
        next_line(&mut reader, &mut line)?;
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            break;
        }
        let (name, value) = trimmed
            .split_once(':')
            .ok_or_else(|| bad("malformed header"))?;
        request
            .headers
            .push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        if request.headers.len() > 100 {
            return Err(bad("too many headers"));
        }
    }
    for name in SINGLE_HEADERS {
        if request.headers.iter().filter(|(k, _)| k == name).count() > 1 {
            return Err(BadRequest(format!("duplicate {name} header")));
        }
    }
    // The body has the rest of the request's time.
    reader.get_mut().get_mut().until = started + REQUEST_DEADLINE;
    if let Some(length) = request.header("content-length") {
        if length.is_empty() || !length.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("malformed Content-Length"));
        }
        if request.header("transfer-encoding").is_some() {
            return Err(bad("Content-Length and Transfer-Encoding together"));
        }
        let length: usize = length
            .parse()
            .map_err(|_| bad("malformed Content-Length"))?;
        if length > MAX_BODY {
            return Err(bad("request body too large"));
        }
        let mut body = vec![0; length];
        reader
            .read_exact(&mut body)
            .map_err(|e| BadRequest(format!("incomplete body: {e}")))?;
        request.body = body;
    } else if request.header("transfer-encoding").is_some() {
        return Err(bad("chunked bodies are not accepted"));
    }
    Ok(request)
}

/// One response.
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Content type.
    pub content_type: &'static str,
    /// Extra headers, `Name: value`.
    pub headers: Vec<String>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A response with a body.
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// `200` with a JSON body.
    pub fn json(body: String) -> Response {
        Response::new(200, "application/json", body)
    }

    /// An error with a JSON `{"error": message}` body.
    pub fn error(status: u16, message: &str) -> Response {
        #[derive(serde::Serialize)]
        struct ErrorReply<'a> {
            error: &'a str,
        }
        Response::new(
            status,
            "application/json",
            crate::json::to_string(&ErrorReply { error: message }),
        )
    }

    /// Writes the response and closes the exchange; a client that does
    /// not read it within [`WRITE_TIMEOUT`] is given up.
    pub fn send(&self, stream: &mut TcpStream) -> std::io::Result<()> {
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Connection: close\r\nCache-Control: no-store\r\n\
             X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n\
             Content-Security-Policy: default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        for h in &self.headers {
            head.push_str(h);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes())?;
        stream.write_all(&self.body)?;
        stream.flush()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Payload Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Starts a server-sent event stream on `stream`.
pub fn start_events(stream: &mut TcpStream) -> std::io::Result<()> {
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    stream.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
          Connection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n",
    )?;
    stream.flush()
}

/// Writes one event (`data` is one line of JSON).
pub fn send_event(stream: &mut TcpStream, data: &str) -> std::io::Result<()> {
    let mut text = String::with_capacity(data.len() + 8);
    for line in data.lines() {
        text.push_str("data: ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    stream.write_all(text.as_bytes())?;
    stream.flush()
}

/// Whether the peer of an event stream has closed its end (the page
/// left): a read would end at once. Nothing else reads an event stream,
/// so [`watch_for_close`] gives its reads a timeout of a millisecond for
/// this look.
pub fn peer_closed(stream: &TcpStream) -> bool {
    let mut byte = [0u8; 1];
    matches!(stream.peek(&mut byte), Ok(0))
}

/// Readies an event stream for [`peer_closed`].
pub fn watch_for_close(stream: &TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_millis(1)))
}

/// Writes a comment line, which the page ignores: it finds out whether
/// the page is still there.
pub fn send_ping(stream: &mut TcpStream) -> std::io::Result<()> {
    stream.write_all(b": ping\n\n")?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_queries() {
        assert_eq!(
            parse_query("move=2C%2B3C%2B4C&x&a+b=%zz"),
            vec![
                ("move".to_string(), "2C+3C+4C".to_string()),
                ("x".to_string(), String::new()),
                ("a b".to_string(), "%zz".to_string()),
            ]
        );
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("a%4"), "a%4");
        assert_eq!(percent_decode("%ff"), "\u{fffd}");
    }
}
