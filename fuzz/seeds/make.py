#!/usr/bin/env python3
"""Writes small seed corpora for the fuzz targets into fuzz/corpus/<target>/ (not committed)."""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(os.path.dirname(here), "corpus")

def put(target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

entity = '{"PartitionKey":"p","RowKey":"r","S":"t","I":7,"D":2.5,"B":false,"N":null,"L":"5","L@odata.type":"Edm.Int64","T":"2024-01-02T03:04:05Z","T@odata.type":"Edm.DateTime","G":"c56a4180-65aa-42ec-a945-5fd21dec0538","G@odata.type":"Edm.Guid","X":"AAEC","X@odata.type":"Edm.Binary","U":"\\ud83d\\ude00 \\u00e9"}'
changeset = ("--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n"
    "--changeset_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
    "POST http://127.0.0.1:10002/devstoreaccount1/tab HTTP/1.1\r\nContent-Type: application/json\r\nPrefer: return-no-content\r\n\r\n"
    '{"PartitionKey":"p","RowKey":"r2","A":1}\r\n'
    "--changeset_1\r\nContent-Type: application/http\r\n\r\n"
    "MERGE http://127.0.0.1:10002/devstoreaccount1/tab(PartitionKey='p',RowKey='r') HTTP/1.1\r\nIf-Match: *\r\nContent-Type: application/json\r\n\r\n"
    '{"B":"x"}\r\n'
    "--changeset_1\r\nContent-Type: application/http\r\n\r\n"
    "DELETE http://127.0.0.1:10002/devstoreaccount1/tab(PartitionKey='p',RowKey='r') HTTP/1.1\r\nIf-Match: *\r\n\r\n\r\n"
    "--changeset_1--\r\n--batch_1--\r\n")
query_batch = ("--batch_2\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
    "GET http://127.0.0.1:10002/devstoreaccount1/tab(PartitionKey='p',RowKey='r') HTTP/1.1\r\nAccept: application/json;odata=nometadata\r\n\r\n\r\n"
    "--batch_2--\r\n")
acl = ('<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>readers</Id>'
       '<AccessPolicy><Start>2024-01-01T00:00:00Z</Start><Expiry>2030-01-01T00:00:00.1234567Z</Expiry><Permission>raud</Permission></AccessPolicy>'
       '</SignedIdentifier><SignedIdentifier><Id>x&amp;y</Id></SignedIdentifier></SignedIdentifiers>')
props = ('<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties>'
         '<Logging><Version>1.0</Version><Delete>true</Delete><Read>false</Read><Write>true</Write><RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></Logging>'
         '<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>false</IncludeAPIs><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>'
         '<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>'
         '<Cors><CorsRule><AllowedOrigins>http://a.com,https://b*</AllowedOrigins><AllowedMethods>GET,PUT</AllowedMethods><MaxAgeInSeconds>60</MaxAgeInSeconds>'
         '<AllowedHeaders>x-ms-meta-*,a</AllowedHeaders><ExposedHeaders>x-ms-*</ExposedHeaders></CorsRule></Cors></StorageServiceProperties>')
answer = ("--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_2\r\n\r\n"
    "--changesetresponse_2\r\nContent-Type: application/http\r\n\r\n"
    "HTTP/1.1 409 Conflict\r\nContent-ID: 3\r\nContent-Type: application/json\r\n\r\n"
    '{"odata.error":{"code":"EntityAlreadyExists","message":{"lang":"en-US","value":"1:The specified entity already exists.\\nRequestId:r"}}}\r\n'
    "--changesetresponse_2--\r\n--batchresponse_1--\r\n")

# wire: first byte selects the reader (see fuzz_targets/wire.rs)
put("wire", "entity", b"\x00" + entity.encode())
put("wire", "page", b"\x01" + ('{"odata.metadata":"m","value":[' + entity + ',{"PartitionKey":"a","RowKey":"b"}]}').encode())
put("wire", "batch", b"\x02multipart/mixed; boundary=batch_1\n" + changeset.encode())
put("wire", "batch-query", b"\x02multipart/mixed; boundary=\"batch_2\"\n" + query_batch.encode())
put("wire", "token", b"\x031!16!cGs4MDEwMTZlOA--")
put("wire", "ifmatch", b"\x04W/\"datetime'2024-05-01T10%3A20%3A30.1234567Z'\"")
put("wire", "segment", b"\x05t1(PartitionKey='O''Brien',RowKey='a,RowKey=''b')")
put("wire", "acl", b"\x06" + acl.encode())
put("wire", "props", b"\x07" + props.encode())
put("wire", "answer", b"\x08" + answer.encode())
put("wire", "error", b"\x09EntityAlreadyExists\n" + b'{"odata.error":{"code":"X","message":{"value":"m"}}}')
put("wire", "error-xml", b"\x09\n<?xml version=\"1.0\"?><Error><Code>AuthorizationFailure</Code><Message>No.</Message></Error>")
put("wire", "metadata", b"\x0aapplication/json;odata=fullmetadata\njson")
put("wire", "xml", b"\x0b<a x='1'><b>t&amp;<![CDATA[c]]>&#x41;</b><c/></a>")

# filter
for i, f in enumerate([
    "PartitionKey eq 'a' and RowKey ge '1' and RowKey lt '2'",
    "(PartitionKey eq 'a' or PartitionKey eq 'b') and not (S eq 'x')",
    "I gt 0 and D le 1.5 or B eq true",
    "L eq 9223372036854775807L or T ge datetime'2024-01-01T00:00:00Z'",
    "G eq guid'c56a4180-65aa-42ec-a945-5fd21dec0538' or X eq X'0001'",
    "X eq binary'000102' and RowKey ne 'r'",
    "PartitionKey gt 'a''b' and PartitionKey le 'zz'",
    "Timestamp lt datetime'2999-01-01T00:00:00Z'",
    "D eq 1e300 or D ne -0.0 or I eq -7",
    "not not not (RowKey eq '\u00e9')",
    "PartitionKey ge 'b' and PartitionKey lt 'b\u0000' and RowKey gt 's'",
    "B",
    "true and PartitionKey eq 'a'",
]):
    put("filter", f"f{i}", f)

# server: requests separated by a line ~~~~ (see fuzz_targets/server.rs)
A = "/devstoreaccount1"
reqs = {
    "insert": f"POST {A}/tab\ncontent-type: application/json\nprefer: return-content\naccept: application/json;odata=fullmetadata\n\n{entity}",
    "query": f"GET {A}/tab()?$filter=PartitionKey%20eq%20'p'%20and%20A%20gt%200&$select=A,S&$top=1\naccept: application/json;odata=minimalmetadata\n\n",
    "continue": f"GET {A}/tab()?$top=1&NextPartitionKey=1!4!cA--&NextRowKey=1!4!cg--\n\n",
    "point": f"GET {A}/tab(PartitionKey='p',RowKey='r')?$select=S\n\n",
    "merge": f"MERGE {A}/tab(PartitionKey='p',RowKey='r')\nif-match: *\ncontent-type: application/json\n\n{{\"B\":\"x\"}}",
    "tunnel": f"POST {A}/tab(PartitionKey='p',RowKey='r')\nx-http-method: DELETE\nif-match: W/\"datetime'2024-05-01T10%3A20%3A30.1234567Z'\"\n\n",
    "put": f"PUT {A}/tab(PartitionKey='p%27%27q',RowKey='%C3%A9')\ncontent-type: application/json\n\n{{\"A\":\"1\",\"A@odata.type\":\"Edm.Int64\"}}",
    "batch": f"POST {A}/$batch\ncontent-type: multipart/mixed; boundary=batch_1\n\n{changeset}",
    "batch-query": f"POST {A}/$batch\ncontent-type: multipart/mixed; boundary=batch_2\n\n{query_batch}",
    "tables": f"GET {A}/Tables?$filter=TableName%20ge%20's'&$top=1&NextTableName=t\naccept: application/json;odata=nometadata\n\n",
    "create": f"POST {A}/Tables\ncontent-type: application/json\n\n{{\"TableName\":\"Orders\"}}\n~~~~\nDELETE {A}/Tables('Orders')\n\n",
    "acl": f"PUT {A}/tab?comp=acl\ncontent-type: application/xml\n\n{acl}\n~~~~\nGET {A}/tab?comp=acl\n\n",
    "props": f"PUT {A}/?restype=service&comp=properties\n\n{props}\n~~~~\nOPTIONS {A}/tab\norigin: http://a.com\naccess-control-request-method: GET\naccess-control-request-headers: x-ms-meta-a\n\n~~~~\nGET {A}/tab()\norigin: http://a.com\n\n",
    "stats": f"GET {A}-secondary/?restype=service&comp=stats\n\n~~~~\nGET /_stats/devstoreaccount1/tab\n\n",
    "host": "GET /Tables\nhost: devstoreaccount1.table.localhost:10002\n\n",
    "sas": f"GET {A}/tab()?sv=2019-02-02&tn=tab&sp=r&se=2099-01-01T00:00:00Z&spk=a&epk=z&sig=AAAA\n\n",
    "version": f"GET {A}/Tables\nx-ms-version: 2009-09-19\n\n",
}
for name, text in reqs.items():
    put("server", name, text)

# template: pk template, rk template, container attrs, field attrs, keys
for name, text in {
    "basic": "{a}\nitem_{b:06}\n\n\nx\nitem_000012",
    "ticks": "{a}_{at:date}\n{at:inverted_ticks}_{id}\nrename_all = \"PascalCase\"\nrename = \"B\"\nk_2024-01-01\n2520000000000000000_c56a4180-65aa-42ec-a945-5fd21dec0538",
    "index": "{a}\n{b}\nindex(name = \"by_c\", partition_key = \"c_{c}\", row_key = \"{b:unpadded}\")\nmax = 999\n12",
    "escaped": "{{lit}}{a:escaped}\n{c}_{flag}\nentity_type = \"T\", version = 2\nskip\n{lit}a\n-5_true",
    "hour": "{at:hour}\n{at:iso}|{data}\nallow(overlap, reason = \"r\")\nas_string\n2024-01-01T00\n",
}.items():
    put("template", name, text)
print("seeds written to", root)

# server, signed SAS tokens (the harness replaces sig=SIGN with the real signature)
A = "/devstoreaccount1"
for name, text in {
    "sas-table": f"GET {A}/tab()?sv=2019-02-02&tn=tab&sp=raud&se=2099-01-01T00:00:00Z&spk=a&epk=z&srk=a&erk=z&sig=SIGN\n\n~~~~\nPOST {A}/tab?sv=2019-02-02&tn=tab&sp=a&se=2099-01-01T00:00:00Z&spk=p&epk=q&sig=SIGN\ncontent-type: application/json\n\n{{\"PartitionKey\":\"p\",\"RowKey\":\"x\"}}",
    "sas-account": f"GET {A}/Tables?sv=2019-02-02&ss=t&srt=sco&sp=rwdlacu&se=2099-01-01T00:00:00Z&sig=SIGN\n\n",
    "sas-policy": f"PUT {A}/tab?comp=acl\n\n<SignedIdentifiers><SignedIdentifier><Id>pol</Id><AccessPolicy><Permission>r</Permission><Expiry>2099-01-01T00:00:00Z</Expiry></AccessPolicy></SignedIdentifier></SignedIdentifiers>\n~~~~\nGET {A}/tab(PartitionKey='p',RowKey='r')?sv=2019-02-02&tn=tab&si=pol&sig=SIGN\n\n",
    "sas-batch": f"POST {A}/$batch?sv=2019-02-02&tn=tab&sp=a&se=2099-01-01T00:00:00Z&spk=p&epk=p&sig=SIGN\ncontent-type: multipart/mixed; boundary=batch_1\n\n{changeset}",
}.items():
    put("server", name, text)
