;;; carrel-paged-tests.el --- ERT tests of listings fetched ahead in pages  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-tests.el and carrel-ahead-tests.el,
;; whose helpers these use.  A big folder fetched ahead comes in pages of
;; `carrel--fetch-page' rows, each parsed in its own moment, all asked at
;; once when the first tells how many there are, and a change that comes
;; between two pages is not lost.

;;; Code:

(require 'carrel-tests)
(require 'carrel-ahead-tests)

(defun carrel-test--fetch-ahead-now ()
  "Let the tree fetch ahead the closed folders it shows, as when idle."
  (setq carrel--ahead-looked nil)
  (carrel--later #'ignore))

(defun carrel-test--server-listing (uri)
  "Return the names the server lists in the folder URI, in order."
  (mapcar (lambda (node) (plist-get node :name))
          (plist-get (aref (carrel--request carrel-test--conn 'carrel/tree (list :uri uri :depth 1)) 0)
                     :children)))

(defun carrel-test--rows-under (uri)
  "Return how many rows the tree keeps whose parent is the folder URI."
  (cl-loop for parent being the hash-values of carrel--parents count (equal parent uri)))

(defvar carrel-test--page-log nil
  "The pages of a folder asked and answered, newest first.
Each is (asked FROM ID) or (answered ID).")

(defun carrel-test--log-asked (uri)
  "Return an advice for `jsonrpc-connection-send' logging the pages of URI asked."
  (lambda (_conn &rest message)
    (let ((params (plist-get message :params)))
      (when (and (plist-get message :id) (memq (plist-get message :method) '(carrel/tree :carrel/tree))
                 (equal (plist-get params :uri) uri) (plist-get params :from))
        (push (list 'asked (plist-get params :from) (plist-get message :id)) carrel-test--page-log)))))

(defun carrel-test--log-answered (_conn message)
  "Log in `carrel-test--page-log' that the answer MESSAGE was read."
  (when (and (plist-get message :id) (plist-member message :result))
    (push (list 'answered (plist-get message :id)) carrel-test--page-log)))

(defun carrel-test--answers-before-each-page ()
  "Return, for each page asked in order, how many pages were answered before.
Read from `carrel-test--page-log'; only answers to pages logged count."
  (let ((asked-ids nil) (answered 0) (counts nil))
    (dolist (entry (reverse carrel-test--page-log))
      (pcase entry
        (`(asked ,_ ,id) (push id asked-ids) (push answered counts))
        (`(answered ,id) (when (memql id asked-ids) (cl-incf answered)))))
    (nreverse counts)))

(defun carrel-test--held-names (uri)
  "Return the names of the rows the tree holds in the folder URI, in order."
  (mapcar (lambda (id) (plist-get (carrel--node id) :name)) (gethash uri carrel--kids)))

;; Not a timing: the bytes of the biggest message Emacs parses at once,
;; which is how long fetching ahead holds it up.
(ert-deftest carrel-test-big-folder-fetched-ahead-in-pages ()
  "A folder of more rows than a page is fetched ahead page by page:
no message parsed meanwhile is bigger than a page, and the listing
held is the server's, whole and in order."
  (let ((carrel--fetch-page 20)
        (carrel-fetch-ahead nil)
        (biggest 0))
    (carrel-test--with-library
      (let ((crate (carrel-test--folder-of "Crate" 70))
            (sent nil))
        (should-not (carrel--loaded-p crate))
        (cl-flet ((weigh (read)
                    (setq biggest (max biggest (- (point-max) (point))))
                    (funcall read)))
          (advice-add 'jsonrpc--json-read :around #'weigh)
          (unwind-protect
              (let ((carrel-fetch-ahead 100))
                (setq sent (carrel-test--recording
                             (carrel-test--fetch-ahead-now)
                             (carrel-test--wait (lambda () (carrel--loaded-p crate)) "the folder fetched ahead")
                             (carrel-test--settled))))
            (advice-remove 'jsonrpc--json-read #'weigh)))
        ;; A page of twenty rows is some 7 KB; the whole listing, 23 KB.
        (should (< 0 biggest 12000))
        ;; Gathered again from the first page if the server told of a
        ;; change in the folder meanwhile: each round asks page by page.
        (let ((froms (mapcar (lambda (params) (plist-get params :from))
                             (seq-filter (lambda (params) (equal (plist-get params :uri) crate))
                                         (carrel-test--tree-requests sent)))))
          (should (equal (last froms 4) '(0 20 40 60)))
          (should (seq-every-p (lambda (from) (memq from '(0 20 40 60))) froms)))
        (should (equal (carrel-test--held-names crate) (carrel-test--server-listing crate)))
        (should (= 70 (length (gethash crate carrel--kids))))
        (carrel-test--goto-row "Crate")
        (let ((sent (carrel-test--recording (carrel-toggle) (carrel-test--settled))))
          (should (null (carrel-test--tree-requests sent))))
        (should (= 70 (carrel-test--notes-shown)))))))

(ert-deftest carrel-test-change-between-pages-not-lost ()
  "A file made in a folder while its pages come in is in the listing
held at the end, once, with no row twice: the pages are gathered
again from the first."
  (let ((carrel--fetch-page 20)
        (carrel-fetch-ahead nil)
        (made nil))
    (carrel-test--with-library
      (let ((crate (carrel-test--folder-of "Crate" 70)))
        (cl-flet ((make-one (_buffer conn _id from)
                    ;; Between the first page and the second, a row lands
                    ;; among those already held, shifting every later one.
                    (when (and (eql from 20) (not made))
                      (setq made t)
                      (carrel--execute conn "carrel.newFile" :parentUri crate :name "Note 05a.md"))))
          (advice-add 'carrel--ask-page :before #'make-one)
          (unwind-protect
              (let ((carrel-fetch-ahead 100))
                (carrel-test--fetch-ahead-now)
                (carrel-test--wait (lambda () (carrel--loaded-p crate)) "the folder fetched ahead")
                (carrel-test--settled)
                (accept-process-output nil 0.2)
                (carrel-test--settled))
            (advice-remove 'carrel--ask-page #'make-one)))
        (should made)
        (let ((held (carrel-test--held-names crate)))
          (should (member "Note 05a.md" held))
          (should (= 71 (length held)))
          (should (equal held (carrel-test--server-listing crate))))
        (carrel-test--goto-row "Crate")
        (carrel-toggle)
        (carrel-test--settled)
        (should (= 70 (carrel-test--notes-shown)))
        (should (carrel-test--row "Note 05a.md"))))))

(ert-deftest carrel-test-folder-opened-while-pages-come-draws-what-is-held ()
  "Opening a folder whose pages are not all in draws the rows held at
once, asks for nothing again, and shows the rest as it comes."
  (let ((carrel--fetch-page 20)
        (carrel-fetch-ahead nil)
        (opened nil))
    (carrel-test--with-library
      (let ((crate (carrel-test--folder-of "Crate" 70))
            (sent nil))
        (cl-flet ((open-now (&rest _)
                    ;; Once two pages are kept, whenever the rest were asked.
                    (when (and (= 40 (carrel-test--rows-under crate)) (not opened))
                      (setq opened t)
                      (carrel-test--goto-row "Crate")
                      (setq sent (carrel-test--recording (carrel-toggle)))
                      (should (= 40 (carrel-test--notes-shown))))))
          (advice-add 'carrel--gathered :after #'open-now)
          (unwind-protect
              (let ((carrel-fetch-ahead 100))
                (carrel-test--fetch-ahead-now)
                (carrel-test--wait (lambda () opened) "the folder opened between pages")
                (carrel-test--wait (lambda () (= 70 (carrel-test--notes-shown))) "the rest shown")
                (carrel-test--settled))
            (advice-remove 'carrel--gathered #'open-now)))
        (should (null (carrel-test--tree-requests sent)))
        (should (equal (carrel-test--held-names crate) (carrel-test--server-listing crate)))))))

;; Not a timing: the order of what is sent and read, which is how many
;; times the pages wait on the server one behind another.
(ert-deftest carrel-test-pages-asked-without-a-round-trip-each ()
  "Once the first page tells how many rows there are, every other page
is asked before the next answer is read: two round trips in all,
however many pages, and the listing held is the server's."
  (let ((carrel--fetch-page 20)
        (carrel-fetch-ahead nil))
    (carrel-test--with-library
      (let* ((crate (carrel-test--folder-of "Crate" 70))
             (log-asked (carrel-test--log-asked crate)))
        (setq carrel-test--page-log nil)
        (advice-add 'jsonrpc-connection-send :before log-asked)
        (advice-add 'jsonrpc-connection-receive :before #'carrel-test--log-answered)
        (unwind-protect
            (let ((carrel-fetch-ahead 100))
              (carrel-test--fetch-ahead-now)
              (carrel-test--wait (lambda () (carrel--loaded-p crate)) "the folder fetched ahead")
              (carrel-test--settled))
          (advice-remove 'jsonrpc-connection-send log-asked)
          (advice-remove 'jsonrpc-connection-receive #'carrel-test--log-answered))
        (let ((froms (cl-loop for entry in (reverse carrel-test--page-log)
                              when (eq (car entry) 'asked) collect (cadr entry))))
          (should (equal froms '(0 20 40 60))))
        ;; Before: (0 1 2 3), a round trip a page.
        (should (equal (carrel-test--answers-before-each-page) '(0 1 1 1)))
        (should (equal (carrel-test--held-names crate) (carrel-test--server-listing crate)))))))

(ert-deftest carrel-test-change-while-pages-in-flight-abandons-the-round ()
  "A file made after the first page is kept, as the rest are asked, makes
the pages be asked again from the first, all at once; the answers
of the round abandoned are ignored, so the listing held is the
server's with no row twice, and the fetch ends once."
  (let ((carrel--fetch-page 20)
        (carrel-fetch-ahead nil)
        (made nil)
        (ended 0))
    (carrel-test--with-library
      (let ((crate (carrel-test--folder-of "Crate" 70))
            (sent nil))
        (cl-flet ((make-one (_buffer conn _id from)
                    ;; The rest of the pages are asked after the change:
                    ;; their listing has one row more than the first's.
                    (when (and (eql from 20) (not made))
                      (setq made t)
                      (carrel--execute conn "carrel.newFile" :parentUri crate :name "Note 05a.md")))
                  (count-end (_buffer _apply id)
                    (when (equal id crate) (cl-incf ended))))
          (advice-add 'carrel--ask-page :before #'make-one)
          (advice-add 'carrel--fetched :before #'count-end)
          (unwind-protect
              (let ((carrel-fetch-ahead 100))
                (setq sent (carrel-test--recording
                             (carrel-test--fetch-ahead-now)
                             (carrel-test--wait (lambda () (carrel--loaded-p crate)) "the folder fetched ahead")
                             (carrel-test--settled)
                             (accept-process-output nil 0.2)
                             (carrel-test--settled))))
            (advice-remove 'carrel--ask-page #'make-one)
            (advice-remove 'carrel--fetched #'count-end)))
        (should made)
        (should (= 1 ended))
        (should (zerop carrel--pending))
        (should-not (gethash crate carrel--in-flight))
        (should-not (gethash crate carrel--gathering))
        (let ((froms (mapcar (lambda (params) (plist-get params :from))
                             (seq-filter (lambda (params) (equal (plist-get params :uri) crate))
                                         (carrel-test--tree-requests sent)))))
          ;; The first round whole, asked before the change was read, then
          ;; one more round of seventy-one rows.  Before: (0 20 0 20 40 60).
          (should (equal froms '(0 20 40 60 0 20 40 60))))
        (let ((held (carrel-test--held-names crate)))
          (should (= 71 (length held)))
          (should (= 71 (length (delete-dups (copy-sequence held)))))
          (should (= 71 (carrel-test--rows-under crate)))
          (should (equal held (carrel-test--server-listing crate))))))))

;; The notice of a change may come after the pages it shifted.
(ert-deftest carrel-test-page-counting-otherwise-restarts-the-round ()
  "A page whose `childCount' differs from the first's makes the pages be
asked again from the first, even before the change is told, so the
listing held is the server's with no row twice."
  (let ((carrel--fetch-page 20)
        (carrel-fetch-ahead nil)
        (made nil))
    (carrel-test--with-library
      (let ((crate (carrel-test--folder-of "Crate" 70))
            (sent nil))
        (cl-flet ((make-one (_buffer conn _id from)
                    (when (and (eql from 20) (not made))
                      (setq made t)
                      (carrel--execute conn "carrel.newFile" :parentUri crate :name "Note 05a.md"))))
          (advice-add 'carrel--ask-page :before #'make-one)
          ;; As if the change were told only once every page is in.
          (advice-add 'carrel--note-for-gatherings :override #'ignore)
          (unwind-protect
              (let ((carrel-fetch-ahead 100))
                (setq sent (carrel-test--recording
                             (carrel-test--fetch-ahead-now)
                             (carrel-test--wait (lambda () (carrel--loaded-p crate)) "the folder fetched ahead")
                             (carrel-test--settled)
                             (accept-process-output nil 0.2)
                             (carrel-test--settled))))
            (advice-remove 'carrel--ask-page #'make-one)
            (advice-remove 'carrel--note-for-gatherings #'ignore)))
        (should made)
        (let ((froms (mapcar (lambda (params) (plist-get params :from))
                             (seq-filter (lambda (params) (equal (plist-get params :uri) crate))
                                         (carrel-test--tree-requests sent)))))
          (should (equal froms '(0 20 40 60 0 20 40 60))))
        (let ((held (carrel-test--held-names crate)))
          (should (= 71 (length (delete-dups (copy-sequence held)))))
          (should (equal held (carrel-test--server-listing crate))))))))

(provide 'carrel-paged-tests)
;;; carrel-paged-tests.el ends here
