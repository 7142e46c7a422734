package sitetest

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Chromium changed how a client emulates the network: up to about 150,
// Network.emulateNetworkConditions sets throttling and the connection type
// that navigator.connection reports; later versions deprecate it for
// Network.overrideNetworkState (absent before). cdproto follows the newest
// protocol only, so the older method is declared here by name.
type emulateNetworkConditionsParams struct {
	Offline            bool                   `json:"offline"`
	Latency            float64                `json:"latency"`
	DownloadThroughput float64                `json:"downloadThroughput"`
	UploadThroughput   float64                `json:"uploadThroughput"`
	ConnectionType     network.ConnectionType `json:"connectionType,omitempty"`
}

var emulateNetworkConditions = cdp.Command[emulateNetworkConditionsParams, cdp.Empty]{Method: "Network.emulateNetworkConditions"}

// emulate2G sets a 2G network on the tab through every method the
// browser may implement, and notes what each answered.
func emulate2G(tb *tab) {
	// navigator.connection.effectiveType follows the round trip (2g from
	// 1,400 ms); the bandwidth is left unthrottled so the page loads in time.
	const latency, bps = 1800, -1
	var said []string
	try := func(name string, a chromedp.Action[chromedp.Void]) {
		if err := chromedp.Do(tb.ctx, a); err != nil {
			said = append(said, fmt.Sprintf("%s: %v", name, err))
		} else {
			said = append(said, name+": ok")
		}
	}
	// Both, in this order: each browser applies the one it implements, and
	// a browser that implements both ends with the newer one's state.
	try("Network.emulateNetworkConditions", cdpDo(emulateNetworkConditions, emulateNetworkConditionsParams{
		Latency: latency, DownloadThroughput: bps, UploadThroughput: bps, ConnectionType: network.ConnectionTypeCellular2g}))
	try("Network.overrideNetworkState", cdpDo(network.OverrideNetworkState, network.OverrideNetworkStateParams{
		Latency: latency, DownloadThroughput: bps, UploadThroughput: bps, ConnectionType: network.ConnectionTypeCellular2g}))
	tb.netMethods = said
	tb.t.Cleanup(func() { clearNetworkEmulation(tb) })
}

// clearNetworkEmulation lifts what emulate2G set, by both methods.
func clearNetworkEmulation(tb *tab) {
	chromedp.Do(tb.base, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		chromedp.Call(ctx, emulateNetworkConditions, emulateNetworkConditionsParams{DownloadThroughput: -1, UploadThroughput: -1})
		chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{DownloadThroughput: -1, UploadThroughput: -1})
		return nil
	}))
}

// hasEffectiveType reports whether the page's navigator.connection says
// want; when the protocol methods did not take (Chromium 150 accepts both
// and changes nothing), it logs which were tried and what they answered.
func hasEffectiveType(tb *tab, want string) bool {
	tb.t.Helper()
	got := jsEval[string](tb, `String(navigator.connection && navigator.connection.effectiveType)`)
	if got != want {
		tb.t.Logf("navigator.connection.effectiveType is %q after the protocol methods %s", got, strings.Join(tb.netMethods, "; "))
	}
	return got == want
}

// connectionStandIn makes navigator.connection say effectiveType on the
// tab's next documents, before the page's own scripts run: how the
// runtime's switch is tested where the browser emulates no network type
// (or, like Firefox, has no navigator.connection at all).
func connectionStandIn(tb *tab, effectiveType string) {
	tb.t.Helper()
	src := `Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => ({ effectiveType: ` + jsStr(effectiveType) + `, saveData: false, addEventListener() {}, removeEventListener() {} }) });`
	tb.addScript(src)
	tb.t.Log("using a stand-in for navigator.connection that says " + effectiveType)
}
