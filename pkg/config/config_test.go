package config

import (
	"strings"
	"testing"
)

const base = "baseURL: https://x.test\ntitle: X\nlocales:\n  - {code: pl, name: Polski, prefix: /pl, default: true}\n"

func TestAnalyticsAndWorker(t *testing.T) {
	c, err := Parse([]byte(base + "analytics:\n  tagManager: GTM-ABC1234\n  measurementId: G-ABC123DEF4\nserviceWorker:\n  retire: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Analytics.Enabled() || c.Analytics.TagManager != "GTM-ABC1234" || !c.ServiceWorker.Retire {
		t.Errorf("parsed %+v %+v", c.Analytics, c.ServiceWorker)
	}
	c, err = Parse([]byte(base))
	if err != nil || c.Analytics.Enabled() || c.ServiceWorker.Retire {
		t.Errorf("defaults: %+v %+v %v", c.Analytics, c.ServiceWorker, err)
	}
	for _, bad := range []string{"analytics:\n  tagManager: UA-1234\n", "analytics:\n  measurementId: 'G-<x>'\n"} {
		_, err := Parse([]byte(base + bad))
		if err == nil || !strings.Contains(err.Error(), "site.yaml:6") {
			t.Errorf("%q: error %v, want one at site.yaml line 6", bad, err)
		}
	}
}
