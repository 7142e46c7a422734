package output

// HostApache is Apache httpd reading .htaccess in the output root
// (AllowOverride All): the redirects, a 404 and 500 page per locale, the
// headers, 404 for the private paths, one redirect to a folder's slash
// (mod_dir). The tests serve it with Apache, which can be made to answer
// 500 anywhere.
var HostApache = &Host{
	Name:  "apache",
	Files: []string{HtaccessName},
	Rules: apacheRules{},
	Test:  HostTest{Server: "apache", ServerError: "locales"},
}

type apacheRules struct{}

func (apacheRules) Make(_ *Host, in HostInput) (map[string][]byte, error) {
	b, err := Htaccess(in.Version, in.Headers, in.Redirects, in.NotFound, in.ServerError)
	return map[string][]byte{HtaccessName: b}, err
}
