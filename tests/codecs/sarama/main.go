// sarama's readers of Kafka's protocol over frames: reads [{id, kind, key, version, hex}] as JSON
// on stdin (a request's whole frame; a response's body after its correlation id) and writes
// {id: {"read": true} | {"error": "..."} | {"unsupported": true}} as JSON. Built against a copy of
// sarama holding zz_logcodec.go (tests/codecs/sarama_protocol.py).
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/Shopify/sarama"
)

type frame struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Key     int16  `json:"key"`
	Version int16  `json:"version"`
	Hex     string `json:"hex"`
}

func read(f frame) (out map[string]interface{}) {
	defer func() { // a reader that panics on malformed bytes: say so, go on
		if p := recover(); p != nil {
			out = map[string]interface{}{"error": fmt.Sprintf("panic: %v", p)}
		}
	}()
	data, err := hex.DecodeString(f.Hex)
	if err != nil {
		return map[string]interface{}{"error": err.Error()}
	}
	if f.Kind == "request" {
		err = sarama.LogcodecDecodeRequest(data)
	} else {
		var known bool
		known, err = sarama.LogcodecDecodeResponse(f.Key, f.Version, data)
		if !known {
			return map[string]interface{}{"unsupported": true}
		}
	}
	if err != nil {
		return map[string]interface{}{"error": err.Error()}
	}
	return map[string]interface{}{"read": true}
}

func main() {
	var frames []frame
	if err := json.NewDecoder(os.Stdin).Decode(&frames); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := map[string]interface{}{}
	for _, f := range frames {
		out[f.ID] = read(f)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
