package kafka

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/config"
)

// The OAUTHBEARER and AWS_MSK_IAM exchanges cannot run against kfake, so
// these tests check the first message each mechanism would send.

func TestOAuthBearerFirstMessage(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("  tok.en.sig\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mech, err := saslMechanism(context.Background(), config.SASLConfig{Mechanism: config.MechanismOAuthBearer, TokenFile: file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mech.Name() != "OAUTHBEARER" {
		t.Fatalf("Name = %q", mech.Name())
	}
	_, first, err := mech.Authenticate(context.Background(), "k:9094")
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != "n,,\x01auth=Bearer tok.en.sig\x01\x01" {
		t.Fatalf("first message = %q", first)
	}
}

func TestAWSMSKIAMFirstMessage(t *testing.T) {
	const secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	_, err := saslMechanism(context.Background(), config.SASLConfig{Mechanism: config.MechanismAWSMSKIAM}, nil)
	if err == nil || !strings.Contains(err.Error(), "AWS_MSK_IAM needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment") {
		t.Fatalf("without credentials: err = %v", err)
	}

	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	t.Setenv("AWS_SESSION_TOKEN", "session-tok")
	mech, err := saslMechanism(context.Background(), config.SASLConfig{Mechanism: config.MechanismAWSMSKIAM}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mech.Name() != "AWS_MSK_IAM" {
		t.Fatalf("Name = %q", mech.Name())
	}
	_, first, err := mech.Authenticate(context.Background(), "b-1.demo.kafka.eu-west-1.amazonaws.com:9098")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(first, &m); err != nil {
		t.Fatalf("first message is not JSON: %v", err)
	}
	if m["action"] != "kafka-cluster:Connect" || m["host"] != "b-1.demo.kafka.eu-west-1.amazonaws.com" ||
		m["x-amz-security-token"] != "session-tok" || m["user-agent"] != "kgroups" ||
		!strings.HasPrefix(m["x-amz-credential"], "AKIDEXAMPLE/") || !strings.Contains(m["x-amz-credential"], "/eu-west-1/kafka-cluster/aws4_request") {
		t.Fatalf("first message = %v", m)
	}
	if strings.Contains(string(first), secret) {
		t.Fatal("the secret key is sent in clear")
	}
}
