// Added to a copy of sarama's package by tests/codecs/sarama_protocol.py (never to the installed
// one): its own readers of requests and responses, reached from outside the package.

package sarama

// LogcodecResponse is sarama's response of an API key (the type its client reads the answer into).
func LogcodecResponse(key int16) versionedDecoder {
	switch key {
	case 0:
		return &ProduceResponse{}
	case 1:
		return &FetchResponse{}
	case 2:
		return &OffsetResponse{}
	case 3:
		return &MetadataResponse{}
	case 8:
		return &OffsetCommitResponse{}
	case 9:
		return &OffsetFetchResponse{}
	case 10:
		return &FindCoordinatorResponse{}
	case 11:
		return &JoinGroupResponse{}
	case 12:
		return &HeartbeatResponse{}
	case 13:
		return &LeaveGroupResponse{}
	case 14:
		return &SyncGroupResponse{}
	case 15:
		return &DescribeGroupsResponse{}
	case 16:
		return &ListGroupsResponse{}
	case 17:
		return &SaslHandshakeResponse{}
	case 18:
		return &ApiVersionsResponse{}
	case 19:
		return &CreateTopicsResponse{}
	case 20:
		return &DeleteTopicsResponse{}
	case 21:
		return &DeleteRecordsResponse{}
	case 22:
		return &InitProducerIDResponse{}
	case 24:
		return &AddPartitionsToTxnResponse{}
	case 25:
		return &AddOffsetsToTxnResponse{}
	case 26:
		return &EndTxnResponse{}
	case 28:
		return &TxnOffsetCommitResponse{}
	case 29:
		return &DescribeAclsResponse{}
	case 30:
		return &CreateAclsResponse{}
	case 31:
		return &DeleteAclsResponse{}
	case 32:
		return &DescribeConfigsResponse{}
	case 33:
		return &AlterConfigsResponse{}
	case 36:
		return &SaslAuthenticateResponse{}
	case 37:
		return &CreatePartitionsResponse{}
	case 42:
		return &DeleteGroupsResponse{}
	}
	return nil
}

// LogcodecDecodeResponse reads a response body of an API version, to its last byte.
func LogcodecDecodeResponse(key, version int16, body []byte) (bool, error) {
	response := LogcodecResponse(key)
	if response == nil {
		return false, nil
	}
	return true, versionedDecode(body, response, version)
}

// LogcodecDecodeRequest reads a request frame (header v1, then the body), to its last byte.
func LogcodecDecodeRequest(frame []byte) error {
	return decode(frame, &request{})
}
