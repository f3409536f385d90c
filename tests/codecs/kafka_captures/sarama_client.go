// The capture scenario (scenario.json) run by sarama, the Go client (Debian's 1.22): every
// connection it opens goes to the recording relay (its Net.Proxy dialer), whatever address the
// broker gives for itself. Built and run by tests/codecs/kafka_capture.py:
// sarama_client SCENARIO_JSON BROKER_PORT RELAY_PORT
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/ioutil"
	"net"
	"os"
	"time"

	"github.com/Shopify/sarama"
)

type message struct {
	Key     *string           `json:"key"`
	Value   string            `json:"value"`
	Headers [][2]string `json:"headers"` // [key, value] pairs, in order
}

type scenario struct {
	Topic string `json:"topic"`
	Group string `json:"group"`
	Sends []struct {
		Compression string    `json:"compression"`
		Messages    []message `json:"messages"`
	} `json:"sends"`
}

// toRelay dials the relay whatever address it is asked for.
type toRelay struct{ relay string }

func (d toRelay) Dial(network, addr string) (net.Conn, error) { return net.Dial(network, d.relay) }

func config(relay string) *sarama.Config {
	c := sarama.NewConfig()
	c.ClientID = "logcodec-capture"
	c.Version = sarama.V2_1_0_0
	c.Net.Proxy.Enable = true
	c.Net.Proxy.Dialer = toRelay{relay}
	c.Producer.Return.Successes = true
	c.Producer.RequiredAcks = sarama.WaitForAll
	c.Producer.Partitioner = sarama.NewManualPartitioner
	c.Consumer.Offsets.Initial = sarama.OffsetOldest
	return c
}

type counter struct {
	want, seen int
	done       chan struct{}
}

func (*counter) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (*counter) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (c *counter) ConsumeClaim(s sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for m := range claim.Messages() {
		s.MarkMessage(m, "")
		c.seen++
		if c.seen == c.want {
			close(c.done)
			return nil
		}
	}
	return nil
}

func run() error {
	raw, err := ioutil.ReadFile(os.Args[1])
	if err != nil {
		return err
	}
	var sc scenario
	if err := json.Unmarshal(raw, &sc); err != nil {
		return err
	}
	broker, relay := "127.0.0.1:"+os.Args[2], "127.0.0.1:"+os.Args[3]
	want := 0
	for _, send := range sc.Sends {
		c := config(relay)
		if send.Compression == "gzip" {
			c.Producer.Compression = sarama.CompressionGZIP
		}
		producer, err := sarama.NewSyncProducer([]string{broker}, c)
		if err != nil {
			return err
		}
		var batch []*sarama.ProducerMessage
		for _, m := range send.Messages {
			pm := &sarama.ProducerMessage{Topic: sc.Topic, Partition: 0, Value: sarama.StringEncoder(m.Value)}
			if m.Key != nil {
				pm.Key = sarama.StringEncoder(*m.Key)
			}
			for _, h := range m.Headers {
				pm.Headers = append(pm.Headers, sarama.RecordHeader{Key: []byte(h[0]), Value: []byte(h[1])})
			}
			batch = append(batch, pm)
		}
		if err := producer.SendMessages(batch); err != nil {
			return err
		}
		if err := producer.Close(); err != nil {
			return err
		}
		want += len(send.Messages)
	}
	group, err := sarama.NewConsumerGroup([]string{broker}, sc.Group, config(relay))
	if err != nil {
		return err
	}
	handler := &counter{want: want, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for ctx.Err() == nil {
			group.Consume(ctx, []string{sc.Topic}, handler)
		}
	}()
	select {
	case <-handler.done:
	case <-time.After(60 * time.Second):
		cancel()
		return fmt.Errorf("consumed %d of %d messages in 60 s", handler.seen, want)
	}
	cancel()
	return group.Close()
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
