package output

// HostStatic is a host that runs no rules (S3, GitHub Pages, any plain
// file server): redirects become meta-refresh pages, unknown paths get the
// server's own 404, and nothing else can be had.
var HostStatic = &Host{Name: "static"}
