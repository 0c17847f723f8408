// Package config is kgroups' typed configuration: named contexts (one
// Cluster each) in a YAML file, plus overrides from the environment and from
// command-line flags.
//
// The file lives at $XDG_CONFIG_HOME/kgroups/config.yaml (falling back to
// ~/.config/kgroups/config.yaml); --config or KGROUPS_CONFIG point elsewhere.
// A missing default file is not an error: `kgroups -b host:9092 list` works
// with no file at all, through an ad-hoc context.
//
// Example:
//
//	current-context: prod
//	contexts:
//	  - name: local
//	    brokers: [127.0.0.1:9092]
//	  - name: prod
//	    brokers:
//	      - kafka-1.prod:9093
//	      - kafka-2.prod:9093
//	    tls:
//	      enabled: true
//	      ca_file: /etc/kafka/ca.pem
//	      cert_file: /etc/kafka/client.pem   # mTLS: cert_file and key_file together
//	      key_file: /etc/kafka/client-key.pem
//	      server_name: kafka.prod            # optional SNI / verification name
//	      insecure_skip_verify: false
//	    sasl:
//	      mechanism: SCRAM-SHA-512           # PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, AWS_MSK_IAM
//	      username: ops
//	      password_env: KAFKA_PROD_PASSWORD  # exactly one of password, password_env, password_file, password_cmd
//	    client_id: kgroups-ops
//	    request_timeout: 10s
//	    refresh: 5s
//	    read_only: true                      # disables every write (reset, delete, remove members)
//	    protected: false                     # writes need the group name typed to confirm
//	  - name: msk
//	    brokers: [b-1.msk.eu-west-1.amazonaws.com:9098]
//	    tls: {enabled: true}
//	    sasl: {mechanism: AWS_MSK_IAM}       # credentials from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN
//	  - name: oauth
//	    brokers: [kafka.example.com:9094]
//	    tls: {enabled: true}
//	    sasl: {mechanism: OAUTHBEARER, token_file: /run/secrets/kafka-token}
//
// Setting any of tls.ca_file, tls.cert_file, tls.key_file, tls.server_name or
// tls.insecure_skip_verify turns TLS on.
//
// Precedence, highest first: command-line flags, environment variables, the
// file, defaults (client_id "kgroups", request_timeout 10s, refresh 5s). The
// context is chosen by --context, else KGROUPS_CONTEXT, else current-context;
// flag and environment settings then override that context's fields, except
// that a guard (read_only, protected) the file turns on cannot be turned off:
// overrides only tighten, and an attempt to loosen is a note (Cluster.Notes).
// With no context chosen, the brokers must come from -b/--brokers or
// KGROUPS_BROKERS.
//
// Every setting (its file key, flag, KGROUPS_* environment variable, type,
// default and validation) is declared once, in Settings; `kgroups config
// --help` lists them. A bad value is a *SettingError that records whether it
// came from a flag, the environment or the file.
//
// Secrets are resolved only when connecting (password_cmd runs with sh -c in
// its own process group, killed with it when the request timeout expires)
// and are never printed: Masked shows an inline password or token as "****"
// and a password_cmd as "<set>" (references such as password_env or
// token_file are shown, since they are not the secret), and no error
// includes a secret or a password command's output. Load warns
// (Config.Warnings) when others can write the file or its directory, or
// read it while it holds an inline secret.
package config
