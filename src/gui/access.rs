//! Who may use the server: the Host and Origin checks, and the token.
//!
//! - **Host**, on every listening address: an IP address (`127.0.0.2`,
//!   `[::1]`, the machine's own), `localhost`, or a name given with
//!   `--allow-host`, with the server's port. A page from another site
//!   that rebinds its own name to this address (DNS rebinding) sends its
//!   name, and is refused.
//! - **Origin**, when the browser sends one: this server's own
//!   (`http://` and the Host), else the request is cross-site.
//! - **Token**, when the server listens on an address other than
//!   loopback: every request of the API (`/api/...`) presents the token
//!   printed with the URL (`http://ADDRESS:PORT/?token=...`), as that
//!   query parameter or as an `X-Tabula-Token` header; the page reads it
//!   from its own address and sends it with each request. Anyone on the
//!   network can reach the server; only who was shown the URL can use it.
//!   The page's files (HTML, script, style) hold no secret and need no
//!   token. The token is never a cookie: browsers scope cookies to the
//!   host, not the port, and would hand it to any other server on
//!   another port of the same host.

use std::net::IpAddr;

use rand::RngCore;

use super::http::HttpRequest;

/// Why a name cannot be allowed with `--allow-host`.
#[derive(Debug, thiserror::Error)]
#[error("--allow-host {0}: a host name is letters, digits, '-' and '.'")]
pub struct BadHostName(pub String);

/// The server's access rules.
#[derive(Clone, Debug)]
pub struct Access {
    port: u16,
    /// Host names allowed besides IP addresses and `localhost`, lower case.
    allowed: Vec<String>,
    /// The token every request must present (non-loopback addresses).
    token: Option<String>,
}

/// Whether `name` may be a host name: letters, digits, `-` and `.`.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
}

/// Splits a Host header into its name and port (`None`: no port).
fn split_host(host: &str) -> Option<(&str, Option<&str>)> {
    if let Some(rest) = host.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        return match after {
            "" => Some((ip, None)),
            p => Some((ip, Some(p.strip_prefix(':')?))),
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) => Some((name, Some(port))),
        None => Some((host, None)),
    }
}

/// Compares two strings in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

impl Access {
    /// The rules of a server listening on `listen`:`port`, with the host
    /// names `allow` besides addresses and `localhost`; a new random token
    /// when `listen` is not loopback.
    pub fn new(listen: IpAddr, port: u16, allow: &[String]) -> Result<Access, BadHostName> {
        let mut allowed = Vec::new();
        for name in allow {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            if !valid_name(&name) {
                return Err(BadHostName(name));
            }
            allowed.push(name);
        }
        let token = (!listen.is_loopback()).then(|| {
            let mut bytes = [0u8; 16];
            rand::rngs::OsRng.fill_bytes(&mut bytes);
            bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
        });
        Ok(Access {
            port,
            allowed,
            token,
        })
    }

    /// The token requests must present, if any.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The page's address for a server at `host` (`ADDRESS:PORT`), with
    /// the token where one is needed.
    pub fn url(&self, host: &str) -> String {
        match &self.token {
            Some(t) => format!("http://{host}/?token={t}"),
            None => format!("http://{host}/"),
        }
    }

    /// Checks a request's Host, Origin and (for the API) token.
    pub fn check(&self, request: &HttpRequest) -> Result<(), Refused> {
        let host = request.header("host").unwrap_or("");
        let Some((name, port)) = split_host(host) else {
            return Err(Refused::Host(host.to_string()));
        };
        let port_ok = match port {
            Some(p) => p.parse::<u16>().ok() == Some(self.port),
            None => self.port == 80,
        };
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        let name_ok =
            name.parse::<IpAddr>().is_ok() || name == "localhost" || self.allowed.contains(&name);
        if !port_ok || !name_ok {
            return Err(Refused::HostName(host.to_string()));
        }
        if let Some(origin) = request.header("origin")
            && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
        {
            return Err(Refused::CrossSite(origin.to_string()));
        }
        let Some(token) = &self.token else {
            return Ok(());
        };
        if !request.path.starts_with("/api/") {
            return Ok(());
        }
        let from_query = request.param("token").is_some_and(|t| same(t, token));
        let from_header = request
            .header("x-tabula-token")
            .is_some_and(|t| same(t, token));
        if !(from_query || from_header) {
            return Err(Refused::Token);
        }
        Ok(())
    }
}

/// Why a request was refused (403): its Host, its Origin, or no token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A Host header that is not `name[:port]`.
    #[error("unexpected Host '{0}'")]
    Host(String),
    /// A Host that is not this server's port, or a name not allowed.
    #[error(
        "unexpected Host '{0}' (names other than addresses and localhost need --allow-host NAME)"
    )]
    HostName(String),
    /// An Origin other than the page's own.
    #[error("cross-site request from '{0}'")]
    CrossSite(String),
    /// The server needs its token and the request has none that matches.
    #[error("this server needs its token: open the URL that tabula gui printed (with ?token=...)")]
    Token,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn request(headers: &[(&str, &str)], query: &str) -> HttpRequest {
        HttpRequest {
            method: "GET".into(),
            path: "/api/setup".into(),
            query: super::super::http::parse_query(query),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            body: Vec::new(),
        }
    }

    #[test]
    fn hosts_on_loopback_and_beyond() {
        let lo = Access::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)), 8099, &[]).unwrap();
        assert!(lo.token().is_none());
        for ok in [
            "127.0.0.2:8099",
            "127.0.0.1:8099",
            "localhost:8099",
            "[::1]:8099",
        ] {
            assert!(lo.check(&request(&[("host", ok)], "")).is_ok(), "{ok}");
        }
        for bad in [
            "evil.example:8099",
            "127.0.0.2:80",
            "127.0.0.2",
            "",
            "[::1",
            "localhost:8099:1",
        ] {
            assert!(lo.check(&request(&[("host", bad)], "")).is_err(), "{bad}");
        }
        let cross = request(
            &[
                ("host", "127.0.0.2:8099"),
                ("origin", "http://evil.example"),
            ],
            "",
        );
        assert!(lo.check(&cross).is_err());

        let any = Access::new(
            IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            8099,
            &["Box.LAN".to_string()],
        )
        .unwrap();
        let token = any.token().expect("a token").to_string();
        assert_eq!(
            any.url("0.0.0.0:8099"),
            format!("http://0.0.0.0:8099/?token={token}")
        );
        // Without the token, nothing; with it, the allowed names only.
        assert!(
            any.check(&request(&[("host", "box.lan:8099")], ""))
                .is_err()
        );
        let q = format!("token={token}");
        assert!(any.check(&request(&[("host", "box.lan:8099")], &q)).is_ok());
        assert!(
            any.check(&request(&[("host", "192.168.1.5:8099")], &q))
                .is_ok()
        );
        assert!(
            any.check(&request(&[("host", "rebound.example:8099")], &q))
                .is_err()
        );
        // A cookie is never the token: another port's server would get it.
        let c = format!("a=1; tabula_token_8099={token}");
        assert!(
            any.check(&request(&[("host", "box.lan:8099"), ("cookie", &c)], ""))
                .is_err()
        );
        let by_header = request(&[("host", "box.lan:8099"), ("x-tabula-token", &token)], "");
        assert!(any.check(&by_header).is_ok());
        // The page's files need none (they hold no secret).
        let mut page = request(&[("host", "box.lan:8099")], "");
        page.path = "/app.js".into();
        assert!(any.check(&page).is_ok());
        let wrong = request(&[("host", "box.lan:8099"), ("x-tabula-token", "00")], "");
        assert!(any.check(&wrong).is_err());
        assert!(Access::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 1, &["a b".into()]).is_err());
    }
}
