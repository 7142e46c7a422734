package output

// HostNginx is nginx with the snippet _nginx.conf included in the server
// block: the redirects, a 404 and 500 page per locale, the headers per
// location, 404 for the private paths. The tests serve it with nginx,
// whose root can be made to answer 500.
var HostNginx = &Host{
	Name:  "nginx",
	Files: []string{NginxName},
	Rules: nginxRules{},
	Test:  HostTest{Server: "nginx", ServerError: "root"},
}

type nginxRules struct{}

func (nginxRules) Make(_ *Host, in HostInput) (map[string][]byte, error) {
	b, err := Nginx(in.Version, in.Headers, in.Redirects, in.NotFound, in.ServerError)
	return map[string][]byte{NginxName: b}, err
}
